/**
 * The language services a CLI command works with. Each process runs one command, so the services can
 * be made ahead of it: when the CLI's start-up snapshot is built (out/cli-snapshot.blob, see
 * launcher.ts), `prepareCliServices` creates them and parses a few statements, so that the parser's
 * grammar analysis, the lexer and the lookahead of common statements are already in the snapshot's heap
 * and a command starts without redoing them. Without a snapshot the first command creates them.
 */
import { NodeFileSystem } from 'langium/node';
import { createPipelineSqlServices, type PipelineSqlServices, type PipelineSqlSharedServices } from '../language/pipeline-sql-module.js';

export interface CliServices {
    readonly shared: PipelineSqlSharedServices;
    readonly PipelineSql: PipelineSqlServices;
}

let prepared: CliServices | undefined;

/** Statements whose parse exercises the grammar's common paths (pipeline statements, queries, expressions). */
const warmUpText = `
CREATE OR REFRESH STREAMING TABLE events (CONSTRAINT valid_id EXPECT (id IS NOT NULL) ON VIOLATION DROP ROW)
AS SELECT id, CAST(ts AS TIMESTAMP) AS ts, payload.status AS status FROM STREAM read_files('/data/events', format => 'json');
CREATE OR REFRESH MATERIALIZED VIEW totals AS
SELECT e.id, count(*) AS n, sum(CASE WHEN e.status = 'DONE' THEN 1 ELSE 0 END) AS done,
       row_number() OVER (PARTITION BY e.id ORDER BY max(e.ts) DESC) AS rn
FROM events e JOIN (SELECT id FROM events WHERE ts > current_timestamp() - INTERVAL 1 DAY) r ON e.id = r.id
WHERE e.id IN (1, 2, 3) GROUP BY e.id HAVING count(*) > 1;
CREATE OR REFRESH STREAMING TABLE target;
CREATE FLOW cdc AS AUTO CDC INTO target FROM STREAM(events) KEYS (id) APPLY AS DELETE WHEN status = 'DELETE'
SEQUENCE BY ts COLUMNS * EXCEPT (status) STORED AS SCD TYPE 2;
`;

/** Creates the services and warms their parser (run while the start-up snapshot is built). */
export function prepareCliServices(): void {
    const services = createPipelineSqlServices(NodeFileSystem);
    services.PipelineSql.parser.LangiumParser.parse(warmUpText);
    prepared = services;
}

/** The services for this process's command: the prepared ones the first time, new ones after. */
export function cliServices(): CliServices {
    const services = prepared ?? createPipelineSqlServices(NodeFileSystem);
    prepared = undefined;
    return services;
}
