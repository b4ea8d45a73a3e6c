import type { DocumentPipelineInfo } from '../../common/protocol.js';

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
