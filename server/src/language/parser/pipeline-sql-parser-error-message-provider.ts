import type { GrammarAST, LangiumCoreServices } from 'langium';
import { AbstractParserErrorMessageProvider, GrammarAST as Ast } from 'langium';

type MismatchOptions = Parameters<AbstractParserErrorMessageProvider['buildMismatchTokenMessage']>[0];
type NotAllInputOptions = Parameters<AbstractParserErrorMessageProvider['buildNotAllInputParsedMessage']>[0];
type NoViableAltOptions = Parameters<AbstractParserErrorMessageProvider['buildNoViableAltMessage']>[0];
type EarlyExitOptions = Parameters<AbstractParserErrorMessageProvider['buildEarlyExitMessage']>[0];
type Token = MismatchOptions['actual'];
type TokenType = MismatchOptions['expected'];

const expression = 'an expression';
const query = 'a query (SELECT, FROM, VALUES, TABLE or WITH)';
const name = 'a name';

/**
 * What the parser expected, in words, for a choice it could not make: per grammar rule, a token that
 * marks the rule's main choice and the words for it. A rule may hold several choices (`IS` then `NULL`
 * or `DISTINCT` inside the predicate rule); the words apply only when the marker token is among the
 * expected ones, otherwise the expected tokens are listed.
 */
const choiceDescriptions: Record<string, [marker: string, description: string]> = {
    Statement: ['SELECT', 'a statement (CREATE, SELECT, SET, USE, APPLY CHANGES, INSERT, ...)'],
    CreateStatement: ['STREAMING', 'STREAMING TABLE, MATERIALIZED VIEW, VIEW, TABLE, FLOW, CATALOG or SCHEMA'],
    Query: ['SELECT', query],
    QueryTerm: ['SELECT', query],
    IntersectTerm: ['SELECT', query],
    QueryPrimary: ['SELECT', query],
    NotExpression: ['NUMBER', expression],
    PredicateExpression: ['NUMBER', expression],
    ComparisonExpression: ['NUMBER', expression],
    ValueExpression: ['NUMBER', expression],
    LogicalExpression: ['NUMBER', expression],
    Expression: ['NUMBER', expression],
    UnaryExpression: ['NUMBER', expression],
    PostfixExpression: ['NUMBER', expression],
    PrimaryExpression: ['NUMBER', expression],
    Literal: ['NUMBER', 'a literal'],
    SelectItem: ['NUMBER', expression],
    SortItem: ['NUMBER', expression],
    FunctionArgument: ['NUMBER', expression],
    TableFunctionArgument: ['NUMBER', 'an expression or TABLE'],
    GroupingItem: ['NUMBER', 'an expression, ROLLUP, CUBE or GROUPING SETS'],
    GroupingSet: ['NUMBER', 'an expression or ()'],
    GroupByClause: ['ALL', 'ALL or an expression'],
    QueryOrganization: ['ALL', 'ALL or an expression'],
    PipeOrganizationClauses: ['ALL', 'ALL or an expression'],
    IntervalLiteral: ['NUMBER', 'an interval value and unit'],
    IntervalUnit: ['YEAR', 'an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...)'],
    Identifier: ['ID', name],
    FunctionIdentifier: ['ID', name],
    NameStart: ['ID', name],
    AliasName: ['ID', name],
    AsAlias: ['ID', name],
    MemberName: ['ID', name],
    QualifiedName: ['ID', name],
    PlainQualifiedName: ['ID', name],
    ColumnPath: ['ID', 'a column name'],
    FunctionName: ['ID', 'a function name'],
    ConfigKey: ['ID', 'a configuration key'],
    ConfigValue: ['CONFIG_VALUE', 'a value'],
    SetStatement: ['ID', 'a configuration key'],
    UseStatement: ['ID', 'a catalog or schema name'],
    PropertyKey: ['ID', 'a property key'],
    PropertyValue: ['TRUE', 'a property value'],
    DataType: ['ARRAY', 'a data type'],
    TypeName: ['ID', 'a data type'],
    StringValue: ['STRING', 'a string'],
    ColumnSelection: ['*', 'a column list, * or * EXCEPT (...)'],
    TableElement: ['CONSTRAINT', 'a column definition, CONSTRAINT ... EXPECT or a key constraint'],
    ColumnProperty: ['COMMENT', 'NOT NULL, COMMENT, GENERATED, DEFAULT, MASK, PRIMARY KEY or COLLATE'],
    TableClause: ['TBLPROPERTIES', 'a table clause (COMMENT, TBLPROPERTIES, PARTITIONED BY, CLUSTER BY, LOCATION, ...)'],
    FlowBody: ['INSERT', 'AUTO CDC INTO, INSERT INTO or APPLY CHANGES INTO'],
    SourceRef: ['STREAM', 'a source table, STREAM(table) or STREAM table'],
    AutoCdcClause: ['SEQUENCE', 'an AUTO CDC clause (SEQUENCE BY, APPLY AS DELETE WHEN, COLUMNS, STORED AS, TRACK HISTORY ON, ...)'],
    StoredAsClause: ['SCD', 'SCD TYPE 1, SCD TYPE 2 or BITEMPORAL'],
    RelationPrimary: ['VALUES', 'a table, a subquery or a table function'],
    TableReference: ['STREAM', 'a table name'],
    JoinType: ['INNER', 'a join (JOIN, LEFT JOIN, ...)'],
    NamedWindow: ['(', 'a window specification in parentheses or a window name'],
    WindowFrame: ['BETWEEN', 'BETWEEN or a frame bound'],
    FrameBound: ['UNBOUNDED', 'UNBOUNDED PRECEDING, CURRENT ROW or a value with PRECEDING or FOLLOWING'],
    TableSample: ['BUCKET', 'a sample size (10 PERCENT, 5 ROWS or BUCKET 1 OUT OF 4)'],
    PipeOperation: ['EXTEND', 'a pipe operator (SELECT, WHERE, EXTEND, AGGREGATE, JOIN, ORDER BY, ...)'],
};

/**
 * Constructs named in a "mismatched token" message when the missing token is their first one (as in
 * "after KEYS: expected a column list in parentheses"). Only rules whose first token cannot recur
 * inside them qualify; elsewhere the expected token itself is named.
 */
const openingDescriptions: Record<string, string> = {
    ColumnNameList: 'a column list in parentheses',
    TableSpec: 'a column list in parentheses',
    WindowSpec: 'a window specification in parentheses',
};

/**
 * Words for a missing token in one rule, where the token alone would mislead. Both AUTO CDC forms
 * start with FROM; when what follows FROM fits neither (or the input ends there), the parser reports
 * the snapshot form's SNAPSHOT, though a change-feed source may come there as well.
 */
const mismatchDescriptions: Record<string, Record<string, string>> = {
    SnapshotSpec: { SNAPSHOT: 'a source: STREAM(table), a table, or SNAPSHOT (query)' },
};

/** The words for a token a rule expected, from {@link mismatchDescriptions}. */
function mismatchDescription(rule: string, token: string): string | undefined {
    const byToken = Object.hasOwn(mismatchDescriptions, rule) ? mismatchDescriptions[rule] : undefined;
    return byToken && Object.hasOwn(byToken, token) ? byToken[token] : undefined;
}

/** Terminal token types in words. */
const terminalDescriptions: Record<string, string> = {
    ID: 'a name',
    BACKTICK_ID: 'a name',
    STRING: 'a string',
    RAW_STRING: 'a string',
    HEX_STRING: 'a binary literal',
    NUMBER: 'a number',
    CELL_BREAK: 'a notebook cell break',
    EOF: 'the end of the file',
};

/** Rules listing the keywords that can be names; in a list of what could come they are just "a name". */
const nameKeywordRules = ['SoftKeyword', 'ClauseKeyword', 'StreamWord', 'GroupingWord', 'IdentifierWord', 'TableWord'];

/** At most this many alternatives are listed before "...". */
const maxListedAlternatives = 8;

/**
 * Parser error messages (Langium's `ParserErrorMessageProvider` service) in plain words: what was
 * found, after which token, and what could come there, e.g.
 * `Unexpected ';' after KEYS: expected a column list in parentheses.` Where the parser was at the
 * start of a construct, the construct is named (from the grammar rule); otherwise the expected
 * token is.
 */
export class PipelineSqlParserErrorMessageProvider extends AbstractParserErrorMessageProvider {

    private readonly terminalNames: ReadonlySet<string>;
    private readonly nameKeywords: ReadonlySet<string>;
    private readonly rules: ReadonlyMap<string, GrammarAST.AbstractRule>;
    private readonly firstTokens = new Map<string, ReadonlySet<string>>();

    constructor(services: LangiumCoreServices) {
        super();
        const rules = services.Grammar.rules;
        this.terminalNames = new Set(rules.filter(Ast.isTerminalRule).map(rule => rule.name));
        this.rules = new Map(rules.map(rule => [rule.name, rule]));
        this.nameKeywords = new Set(nameKeywordRules.flatMap(name => [...this.first(name)]));
    }

    override buildMismatchTokenMessage({ expected, actual, previous, ruleName }: MismatchOptions): string {
        const rule = stripRuleSuffix(ruleName);
        let wanted: string;
        if (expected.name === 'EOF') {
            // The file rule expected the end of the statement. Chevrotain builds this message after
            // skipping ahead to recover, so its `previous` token is not the one before `actual`.
            return `Unexpected ${this.describeToken(actual)}: expected ';' or the end of the file.`;
        } else if (mismatchDescription(rule, expected.name) !== undefined) {
            wanted = mismatchDescription(rule, expected.name)!;
        } else if (Object.hasOwn(openingDescriptions, rule) && this.first(rule).has(expected.name)) {
            wanted = openingDescriptions[rule];
        } else {
            wanted = this.describeTokenType(expected);
        }
        return `${this.unexpected(actual, previous)}: expected ${wanted}.`;
    }

    override buildNotAllInputParsedMessage({ firstRedundant }: NotAllInputOptions): string {
        return `Unexpected ${this.describeToken(firstRedundant)}: expected ';' or the end of the file.`;
    }

    override buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, ruleName }: NoViableAltOptions): string {
        const expected = expectedPathsPerAlt.flatMap(paths => paths.map(path => path[0]));
        return `${this.unexpected(actual[0], previous)}: expected ${this.describeChoice(ruleName, expected)}.`;
    }

    override buildEarlyExitMessage({ expectedIterationPaths, actual, previous, ruleName }: EarlyExitOptions): string {
        const expected = expectedIterationPaths.map(path => path[0]);
        return `${this.unexpected(actual[0], previous)}: expected ${this.describeChoice(ruleName, expected)}.`;
    }

    /** Words for a choice of tokens: the rule's own words when they fit, else the tokens. */
    private describeChoice(ruleName: string, expected: ReadonlyArray<TokenType | undefined>): string {
        const key = stripRuleSuffix(ruleName);
        const choice = Object.hasOwn(choiceDescriptions, key) ? choiceDescriptions[key] : undefined;
        if (choice !== undefined && expected.some(type => type?.name === choice[0])) {
            return choice[1];
        }
        return this.describeAlternatives(expected) || 'more input';
    }

    private unexpected(actual: Token, previous: Token | undefined): string {
        const after = previous !== undefined && previous.tokenType.name !== 'EOF' && !isNaN(previous.startOffset)
            ? ` after ${this.describeToken(previous)}` : '';
        return `Unexpected ${this.describeToken(actual)}${after}`;
    }

    /** A token as found in the source: keywords bare and upper case, the rest quoted. */
    private describeToken(token: Token): string {
        const name = token.tokenType.name;
        if (name === 'EOF') {
            return 'end of file';
        }
        if (name === 'CELL_BREAK') {
            return 'notebook cell break';
        }
        if (this.isWordKeyword(name)) {
            return name;
        }
        return `'${token.image}'`;
    }

    /** A token type as something that could come: keywords bare, punctuation quoted, terminals in words. */
    private describeTokenType(type: TokenType): string {
        const name = type.name;
        if (this.terminalNames.has(name) || name === 'EOF') {
            return Object.hasOwn(terminalDescriptions, name) ? terminalDescriptions[name] : name;
        }
        return this.isWordKeyword(name) ? name : `'${name}'`;
    }

    private describeAlternatives(types: ReadonlyArray<TokenType | undefined>): string {
        let present = types.filter(type => type !== undefined);
        if (present.some(type => type.name === 'ID')) {
            // Where a name can come, the keywords that can be names are not worth listing one by one.
            present = present.filter(type => !this.nameKeywords.has(type.name));
        }
        const described = [...new Set(present.map(type => this.describeTokenType(type)))];
        if (described.length === 0) {
            return '';
        }
        if (described.length > maxListedAlternatives) {
            return `one of ${described.slice(0, maxListedAlternatives).join(', ')} (and ${described.length - maxListedAlternatives} more)`;
        }
        return described.length === 1 ? described[0] : `${described.slice(0, -1).join(', ')} or ${described[described.length - 1]}`;
    }

    private isWordKeyword(name: string): boolean {
        return !this.terminalNames.has(name) && /^[A-Z_]+$/.test(name);
    }

    /** The token types a rule can start with (computed from the grammar, cached). */
    private first(ruleName: string): ReadonlySet<string> {
        let result = this.firstTokens.get(ruleName);
        if (result === undefined) {
            const tokens = new Set<string>();
            const rule = this.rules.get(ruleName);
            if (rule !== undefined) {
                this.collectFirst(rule, tokens, new Set());
            }
            result = tokens;
            this.firstTokens.set(ruleName, result);
        }
        return result;
    }

    /** Adds the first tokens of a rule; returns whether the rule can match nothing. */
    private collectFirst(rule: GrammarAST.AbstractRule, into: Set<string>, visiting: Set<GrammarAST.AbstractRule>): boolean {
        if (Ast.isTerminalRule(rule)) {
            into.add(rule.name);
            return false;
        }
        if (visiting.has(rule)) {
            return false;
        }
        visiting.add(rule);
        if (Ast.isInfixRule(rule)) {
            const called = rule.call.rule.ref;
            return called !== undefined && this.collectFirst(called, into, visiting);
        }
        return Ast.isParserRule(rule) ? this.collectFirstOfElement(rule.definition, into, visiting) : false;
    }

    private collectFirstOfElement(element: GrammarAST.AbstractElement, into: Set<string>, visiting: Set<GrammarAST.AbstractRule>): boolean {
        const optional = element.cardinality === '?' || element.cardinality === '*';
        let nullable: boolean;
        if (Ast.isKeyword(element)) {
            into.add(element.value);
            nullable = false;
        } else if (Ast.isRuleCall(element)) {
            const called = element.rule.ref;
            nullable = called !== undefined && this.collectFirst(called, into, visiting);
        } else if (Ast.isAssignment(element)) {
            nullable = this.collectFirstOfElement(element.terminal, into, visiting);
        } else if (Ast.isCrossReference(element)) {
            nullable = element.terminal !== undefined && this.collectFirstOfElement(element.terminal, into, visiting);
        } else if (Ast.isAlternatives(element)) {
            nullable = false;
            for (const alternative of element.elements) {
                nullable = this.collectFirstOfElement(alternative, into, visiting) || nullable;
            }
        } else if (Ast.isGroup(element) || Ast.isUnorderedGroup(element)) {
            nullable = true;
            for (const part of element.elements) {
                if (!this.collectFirstOfElement(part, into, visiting)) {
                    nullable = false;
                    break;
                }
            }
        } else {
            // Actions and other elements that match no token.
            nullable = true;
        }
        return nullable || optional;
    }
}

/** Langium registers rules with Chevrotain under their name plus a zero-width space. */
function stripRuleSuffix(ruleName: string): string {
    return ruleName.replace(/\u200B$/, '');
}
