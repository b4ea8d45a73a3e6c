import type { LangiumDocument } from 'langium';
import type { CompletionItem, Hover, MarkupContent } from 'vscode-languageserver';
import { createPipelineTester, type LoadedPipeline, type PipelineOptions } from '../../../helpers/pipeline.js';

/** The cursor marker in test texts. */
export const Cursor = '<|>';

/** A loaded pipeline with the cursor positions found in its files. */
export interface EditorPipeline extends LoadedPipeline {
    /** The file that had the markers, its document and the marker offsets (in order). */
    readonly file: string;
    readonly document: LangiumDocument;
    readonly offsets: readonly number[];
}

/**
 * Services on an in-memory file system and a loader of pipelines whose files may contain cursor
 * markers `<|>` (the markers are removed before the files are built).
 */
export function createEditorTester(): ReturnType<typeof createPipelineTester> & {
    open(files: Record<string, string>, options?: PipelineOptions): Promise<EditorPipeline>;
    completion(files: Record<string, string>, options?: PipelineOptions): Promise<CompletionItem[]>;
    hover(files: Record<string, string>, options?: PipelineOptions): Promise<string | undefined>;
} {
    const tester = createPipelineTester();
    const open = async (files: Record<string, string>, options?: PipelineOptions): Promise<EditorPipeline> => {
        const clean: Record<string, string> = {};
        let marked: { file: string; offsets: number[] } | undefined;
        for (const [file, text] of Object.entries(files)) {
            const offsets: number[] = [];
            let rest = text;
            let index = rest.indexOf(Cursor);
            while (index >= 0) {
                offsets.push(index);
                rest = rest.slice(0, index) + rest.slice(index + Cursor.length);
                index = rest.indexOf(Cursor);
            }
            clean[file] = rest;
            if (offsets.length > 0) {
                marked = { file, offsets };
            }
        }
        const loaded = await tester.load(clean, options);
        const file = marked?.file ?? Object.keys(files)[0];
        return { ...loaded, file, document: loaded.documents.get(file)!, offsets: marked?.offsets ?? [] };
    };
    return {
        ...tester,
        open,
        async completion(files, options) {
            const pipeline = await open(files, options);
            const { document } = pipeline;
            const list = await tester.services.lsp.CompletionProvider!.getCompletion(document, {
                textDocument: { uri: document.uri.toString() }, position: document.textDocument.positionAt(pipeline.offsets[0]),
            });
            return sortItems(list?.items ?? []);
        },
        async hover(files, options) {
            const pipeline = await open(files, options);
            const { document } = pipeline;
            const hover = await tester.services.lsp.HoverProvider!.getHoverContent(document, {
                textDocument: { uri: document.uri.toString() }, position: document.textDocument.positionAt(pipeline.offsets[0]),
            });
            return hoverText(hover);
        },
    };
}

/** Completion items in the order the editor shows them (by sort text, then label). */
export function sortItems(items: CompletionItem[]): CompletionItem[] {
    return [...items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '') || String(a.label).localeCompare(String(b.label)));
}

/** The labels of the items, in the order the editor shows them. */
export function labels(items: readonly CompletionItem[]): string[] {
    return items.map(i => String(i.label));
}

/** The Markdown text of a hover. */
export function hoverText(hover: Hover | undefined): string | undefined {
    const contents = hover?.contents;
    if (!contents) {
        return undefined;
    }
    return typeof contents === 'string' ? contents : 'value' in (contents as MarkupContent) ? (contents as MarkupContent).value : JSON.stringify(contents);
}
