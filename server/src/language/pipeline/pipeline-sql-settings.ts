/**
 * The settings the language server validates with: the target runtime profile
 * (`pipelineSql.target`: `databricks`, `spark-4.1`, `spark-4.2`). The language server reads it from
 * the client's workspace configuration; the CLI from `check --target`.
 */

/** The runtimes a pipeline can target (docs/semantics.md §17). */
export const TargetProfiles = ['databricks', 'spark-4.1', 'spark-4.2'] as const;

/** A target runtime profile. */
export type TargetProfile = typeof TargetProfiles[number];

/** The setting id of the target profile (declared in package.json `contributes.configuration`). */
export const TargetSettingId = 'pipelineSql.target';

/** Whether a string names a target profile. */
export function isTargetProfile(value: unknown): value is TargetProfile {
    return typeof value === 'string' && (TargetProfiles as readonly string[]).includes(value);
}

/** How a profile is named in messages. */
export function describeTarget(profile: TargetProfile): string {
    switch (profile) {
        case 'databricks': return 'Databricks Lakeflow pipelines';
        case 'spark-4.1': return 'Apache Spark 4.1 declarative pipelines';
        case 'spark-4.2': return 'Apache Spark 4.2 declarative pipelines';
    }
}

/** The validation settings (a Pipeline SQL service, `pipeline.Settings`). */
export class PipelineSqlSettings {

    private current: TargetProfile = 'databricks';
    private readonly listeners: Array<(profile: TargetProfile) => void> = [];

    /** The target runtime profile; `databricks` unless configured. */
    get target(): TargetProfile {
        return this.current;
    }

    /** Changes the target profile; listeners (the language server revalidates) hear about real changes. */
    setTarget(profile: TargetProfile): void {
        if (profile !== this.current) {
            this.current = profile;
            this.listeners.forEach(listener => listener(profile));
        }
    }

    /** Called when the target profile changes. */
    onDidChangeTarget(listener: (profile: TargetProfile) => void): void {
        this.listeners.push(listener);
    }
}
