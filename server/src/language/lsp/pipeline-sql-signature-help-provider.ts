import type { AstNode, Cancellation, LangiumDocument } from 'langium';
import { AbstractSignatureHelpProvider } from 'langium/lsp';
import type { ParameterInformation, SignatureHelp, SignatureHelpOptions, SignatureHelpParams, SignatureInformation } from 'vscode-languageserver';
import {
    CLOUD_FILES_OPTIONS, getFunction, parameterForArgument, signatureArity, signatureLabel, type BuiltinFunction, type FunctionOption,
} from '../builtins/index.js';
import type { PipelineSqlServices } from '../pipeline-sql-module.js';
import { lower } from '../references/dataset-names.js';
import { tokenEnd, unquote, type Token } from './completion/completion-site.js';

/** Call syntax whose parentheses hold no argument list (`CAST(x AS t)`, `STREAM(t)`). */
const notCalls = new Set(['STREAM', 'KEYS', 'EXCEPT', 'IN', 'EXISTS', 'VALUES', 'OVER', 'USING', 'TBLPROPERTIES', 'OPTIONS', 'EXPECT', 'AS', 'ON']);

/** The call around the cursor, read from the tokens before it. */
interface CallAtCursor {
    readonly function: BuiltinFunction;
    /** Index of the argument the cursor is in (commas at the call's depth). */
    readonly argumentIndex: number;
    /** The `name =>` the argument starts with, if any. */
    readonly argumentName?: string;
    /** Arguments before the cursor (for choosing an overload). */
    readonly argumentCount: number;
}

/**
 * Signature help (Langium's `SignatureHelp` service): the signatures of the built-in function whose
 * argument list the cursor is in, with the current parameter highlighted; a named argument
 * (`format => …`) selects its parameter, or, for `read_files` / `cloud_files` options, shows the
 * option's description. Langium's base class starts from the AST node at the cursor; while an
 * argument list is being typed the text usually does not parse, so the call is found from the tokens.
 */
export class PipelineSqlSignatureHelpProvider extends AbstractSignatureHelpProvider {

    constructor(private readonly services: PipelineSqlServices) {
        super();
    }

    override get signatureHelpOptions(): SignatureHelpOptions {
        return { triggerCharacters: ['('], retriggerCharacters: [','] };
    }

    override provideSignatureHelp(document: LangiumDocument, params: SignatureHelpParams): SignatureHelp | undefined {
        const offset = document.textDocument.offsetAt(params.position);
        const call = this.callAt(document, offset);
        if (!call) {
            return undefined;
        }
        const f = call.function;
        const signatures: SignatureInformation[] = [];
        f.signatures.forEach((_, i) => {
            const label = signatureLabel(f, i);
            if (label) {
                signatures.push({
                    label: label.label,
                    documentation: { kind: 'markdown', value: `${f.description}\n\nExample: \`${f.example}\`` },
                    parameters: label.parameters.map(p => ({ label: [p.start, p.end] as [number, number] })),
                });
            }
        });
        if (signatures.length === 0) {
            return undefined;
        }
        const activeSignature = Math.max(0, f.signatures.findIndex(s => {
            const { max } = signatureArity(s);
            return max > call.argumentIndex && max >= call.argumentCount;
        }));
        const signature = f.signatures[activeSignature];
        let activeParameter = this.parameterIndex(f, activeSignature, call);
        const option = call.argumentName ? this.option(f, call.argumentName) : undefined;
        if (option && activeParameter >= 0) {
            const parameters = signatures[activeSignature].parameters as ParameterInformation[];
            parameters[activeParameter] = { ...parameters[activeParameter], documentation: { kind: 'markdown', value: optionMarkdown(option) } };
        }
        if (activeParameter < 0) {
            activeParameter = signature.parameters.length;
        }
        return { signatures, activeSignature, activeParameter };
    }

    /** Not used: the call is found from the tokens (see `provideSignatureHelp`). */
    protected getSignatureFromElement(_element: AstNode, _cancelToken: Cancellation.CancellationToken): SignatureHelp | undefined {
        return undefined;
    }

    /** Which parameter of a signature the argument at the cursor fills: by name, else by position. */
    private parameterIndex(f: BuiltinFunction, signatureIndex: number, call: CallAtCursor): number {
        const parameters = f.signatures[signatureIndex].parameters;
        if (call.argumentName) {
            const named = parameters.findIndex(p => !p.variadic && lower(p.name) === lower(call.argumentName));
            if (named >= 0) {
                return named;
            }
            // An option of read_files goes to the repeated `option => value` parameter.
            return parameters.findIndex(p => p.variadic);
        }
        const parameter = parameterForArgument(f.signatures[signatureIndex], call.argumentIndex);
        return parameter ? parameters.indexOf(parameter) : -1;
    }

    private option(f: BuiltinFunction, name: string): FunctionOption | undefined {
        const options = f.name === 'cloud_files' ? CLOUD_FILES_OPTIONS : f.options ?? [];
        return options.find(o => lower(o.name) === lower(name));
    }

    /** The innermost unclosed `name(` before the cursor whose name is a built-in function. */
    private callAt(document: LangiumDocument, offset: number): CallAtCursor | undefined {
        const text = document.textDocument.getText();
        const tokens = (this.services.parser.Lexer.tokenize(text).tokens as Token[]).filter(t => tokenEnd(t) <= offset);
        let depth = 0;
        let commas = 0;
        // The nearest comma at the depth of the call being looked at: the current argument starts after it.
        let separator: number | undefined;
        for (let i = tokens.length - 1; i >= 0; i--) {
            const image = tokens[i].image;
            if (image === ';' || tokens[i].tokenType.name === 'CELL_BREAK') {
                return undefined;
            }
            if (image === ')') {
                depth++;
            } else if (image === '(') {
                if (depth > 0) {
                    depth--;
                    continue;
                }
                const name = tokens[i - 1];
                const f = name && !notCalls.has(name.image) ? getFunction(unquote(name.image)) : undefined;
                if (f) {
                    const start = separator ?? i;
                    const argumentName = tokens[start + 2]?.image === '=>' ? unquote(tokens[start + 1].image) : undefined;
                    return { function: f, argumentIndex: commas, argumentName, argumentCount: commas + 1 };
                }
                // Parentheses that are no known call (a subquery, a tuple): the call may be further out.
                commas = 0;
                separator = undefined;
            } else if (image === ',' && depth === 0) {
                separator ??= i;
                commas++;
            }
        }
        return undefined;
    }
}

function optionMarkdown(option: FunctionOption): string {
    const facts = [option.values ? `one of ${option.values.join(', ')}` : option.valueKind];
    if (option.defaultValue !== undefined) {
        facts.push(`default ${option.defaultValue}`);
    }
    return `**${option.name}**: ${option.description} (${facts.join('; ')})`;
}
