import type { DocumentPipelineInfo } from '../../common/protocol.js';

/** A pipeline definition the status item's click can open: its file and line, and how the pick names it. */
export interface DefinitionChoice {
    readonly label: string;
    readonly description: string;
    readonly uri: string;
    /** 0-based line. */
    readonly line: number;
}

/**
 * The definitions of a document's pipelines that have one (a bundle resource, a spark-pipeline.yml),
 * each once: the status item opens the only one, or offers a pick of several (a file two pipelines
 * list). Pure, unit-tested.
 */
export function definitionChoices(info: DocumentPipelineInfo | undefined): DefinitionChoice[] {
    const seen = new Set<string>();
    return (info?.pipelines ?? []).flatMap(p => {
        if (!p.specUri || seen.has(p.id)) {
            return [];
        }
        seen.add(p.id);
        const file = p.specUri.slice(p.specUri.lastIndexOf('/') + 1);
        const line = Math.max(0, (p.specLine ?? 1) - 1);
        return [{ label: p.name, description: `${p.key ? `${p.key} · ` : ''}${decodeURIComponent(file)}:${line + 1}`, uri: p.specUri, line }];
    });
}

/** The text of the pipeline item for a document's pipelines (pure, unit-tested). */
export function pipelineStatusText(info: DocumentPipelineInfo | undefined): { text: string; detail: string } {
    const pipelines = info?.pipelines ?? [];
    if (!info || pipelines.length === 0) {
        return { text: 'No pipeline', detail: info?.reason ?? 'The file belongs to no pipeline: it is checked on its own.' };
    }
    const names = pipelines.map(p => p.name).join(', ');
    const target = pipelines.find(p => p.bundle?.target)?.bundle?.target;
    const bundle = pipelines.find(p => p.bundle)?.bundle;
    // Why the file is Pipeline SQL is the other status item's; this one says where the pipeline comes from.
    const detail = bundle
        ? `Bundle ${bundle.name ?? ''}${target ? `, target ${target}` : ''}`.replace('Bundle ,', 'Bundle,')
        : pipelines[0].layout === 'spark-pipeline' ? 'Defined by spark-pipeline.yml' : 'A folder of pipeline SQL without project file';
    return { text: `$(type-hierarchy) ${names}${target ? ` · ${target}` : ''}`, detail };
}
