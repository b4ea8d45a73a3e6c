import type { LangiumCoreServices } from 'langium';
import { LLStarLookaheadStrategy } from 'chevrotain-allstar';

/** How many distinct lookahead-ambiguity reports are kept (they are for tests and debugging). */
const maxAmbiguityReports = 100;

/**
 * Ambiguities met by the ALL(*) lookahead while parsing: input where two alternatives of one grammar
 * decision both fit, and the parser took the first. Langium's default strategy prints them with
 * `console.log`, which would corrupt an LSP stdio stream; here they are collected instead. The known
 * cases are listed in the grammar's documentation; the corpus tests assert that none occur there.
 */
export const lookaheadAmbiguities: string[] = [];

/**
 * The parser configuration (Langium's `ParserConfig` service): Langium's ALL(*) lookahead with
 * ambiguity reports collected in {@link lookaheadAmbiguities}, and `maxLookahead: 1`. The latter only
 * bounds the token paths Chevrotain computes to describe a syntax error; with a large `OR` such as the
 * primary-expression rule, the default depth of 3 made one error message cost tens of seconds.
 */
export function createPipelineSqlParserConfig(): NonNullable<LangiumCoreServices['parser']['ParserConfig']> {
    return {
        maxLookahead: 1,
        lookaheadStrategy: new LLStarLookaheadStrategy({
            logging: message => {
                if (lookaheadAmbiguities.length < maxAmbiguityReports) {
                    lookaheadAmbiguities.push(message);
                }
            },
        }),
    };
}
