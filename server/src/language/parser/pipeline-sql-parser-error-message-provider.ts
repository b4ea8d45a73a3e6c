import type { GrammarAST, LangiumCoreServices } from 'langium';
import { AbstractParserErrorMessageProvider, GrammarAST as Ast } from 'langium';

type MismatchOptions = Parameters<AbstractParserErrorMessageProvider['buildMismatchTokenMessage']>[0];
type NotAllInputOptions = Parameters<AbstractParserErrorMessageProvider['buildNotAllInputParsedMessage']>[0];
type NoViableAltOptions = Parameters<AbstractParserErrorMessageProvider['buildNoViableAltMessage']>[0];
type EarlyExitOptions = Parameters<AbstractParserErrorMessageProvider['buildEarlyExitMessage']>[0];
type Token = MismatchOptions['actual'];
type TokenType = MismatchOptions['expected'];

/** What the parser expected, in words, keyed by the grammar rule it was in. */
const ruleDescriptions: Record<string, string> = {
    Statement: 'a statement (CREATE, SELECT, SET, USE, APPLY CHANGES, INSERT, ...)',
    CreateStatement: 'STREAMING TABLE, MATERIALIZED VIEW, VIEW, TABLE, FLOW, CATALOG or SCHEMA',
    Query: 'a query (SELECT, FROM, VALUES, TABLE or WITH)',
    QueryTerm: 'a query (SELECT, FROM, VALUES, TABLE or WITH)',
    IntersectTerm: 'a query (SELECT, FROM, VALUES, TABLE or WITH)',
    QueryPrimary: 'a query (SELECT, FROM, VALUES, TABLE or WITH)',
    Expression: 'an expression',
    NotExpression: 'an expression',
    PredicateExpression: 'an expression',
    ComparisonExpression: 'an expression',
    UnaryExpression: 'an expression',
    PostfixExpression: 'an expression',
    PrimaryExpression: 'an expression',
    Literal: 'a literal',
    SelectItem: 'an expression',
    SortItem: 'an expression',
    GroupingItem: 'an expression, ROLLUP, CUBE or GROUPING SETS',
    GroupingSet: 'an expression or ()',
    FunctionArgument: 'an expression',
    TableFunctionArgument: 'an expression or TABLE',
    Identifier: 'a name',
    FunctionIdentifier: 'a name',
    NameStart: 'a name',
    AliasName: 'a name',
    AsAlias: 'a name',
    QualifiedName: 'a name',
    PlainQualifiedName: 'a name',
    ColumnPath: 'a column name',
    FunctionName: 'a function name',
    ConfigKey: 'a configuration key',
    ConfigValue: 'a value',
    DatasetRef: 'a table name',
    PlainDatasetRef: 'a table name',
    DataType: 'a data type',
    TypeName: 'a data type',
    StructTypeField: 'a field name',
    StringValue: 'a string',
    IntervalUnit: 'an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...)',
    IntervalLiteral: 'an interval value and unit',
    ColumnNameList: 'a column list in parentheses',
    ColumnSelection: 'a column list, * or * EXCEPT (...)',
    TableSpec: 'a column list in parentheses',
    TableElement: 'a column definition, CONSTRAINT ... EXPECT or a key constraint',
    ColumnDef: 'a column name',
    ColumnProperty: 'NOT NULL, COMMENT, GENERATED, DEFAULT, MASK, PRIMARY KEY or COLLATE',
    TableClause: 'a table clause (COMMENT, TBLPROPERTIES, PARTITIONED BY, CLUSTER BY, LOCATION, ...)',
    Expectation: 'CONSTRAINT name EXPECT (condition)',
    FlowBody: 'AUTO CDC INTO, INSERT INTO or APPLY CHANGES INTO',
    InlineFlow: 'FLOW',
    SourceRef: 'a source table, STREAM(table) or STREAM table',
    AutoCdcSpec: 'FROM source KEYS (...)',
    SnapshotSpec: 'FROM SNAPSHOT (query)',
    AutoCdcClause: 'an AUTO CDC clause (SEQUENCE BY, APPLY AS DELETE WHEN, COLUMNS, STORED AS, TRACK HISTORY ON, ...)',
    StoredAsClause: 'SCD TYPE 1, SCD TYPE 2 or BITEMPORAL',
    ReplaceUsingSpec: 'USING (columns)',
    Relation: 'a table, a subquery or a table function',
    RelationPrimary: 'a table, a subquery or a table function',
    TableReference: 'a table name',
    JoinType: 'a join (JOIN, LEFT JOIN, ...)',
    WindowSpec: 'a window specification in parentheses',
    WindowFrame: 'ROWS or RANGE',
    FrameBound: 'UNBOUNDED PRECEDING, CURRENT ROW or a value with PRECEDING or FOLLOWING',
    PipeOperation: 'a pipe operator (SELECT, WHERE, EXTEND, AGGREGATE, JOIN, ORDER BY, ...)',
    PivotClause: 'PIVOT (...)',
    UnpivotClause: 'UNPIVOT (...)',
    TableSample: 'TABLESAMPLE (...)',
    SetStatement: 'a configuration key',
    UseStatement: 'a catalog or schema name',
    Property: 'a property key',
    PropertyKey: 'a property key',
    PropertyValue: 'a property value',
    Lambda: 'a lambda',
    CaseExpression: 'WHEN',
    CastCall: 'an expression',
};

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
    private readonly rules: ReadonlyMap<string, GrammarAST.AbstractRule>;
    private readonly firstTokens = new Map<string, ReadonlySet<string>>();

    constructor(services: LangiumCoreServices) {
        super();
        const rules = services.Grammar.rules;
        this.terminalNames = new Set(rules.filter(Ast.isTerminalRule).map(rule => rule.name));
        this.rules = new Map(rules.map(rule => [rule.name, rule]));
    }

    override buildMismatchTokenMessage({ expected, actual, previous, ruleName }: MismatchOptions): string {
        const rule = stripRuleSuffix(ruleName);
        let wanted: string;
        if (expected.name === 'EOF') {
            // The file rule expected the end of the statement. Chevrotain builds this message after
            // skipping ahead to recover, so its `previous` token is not the one before `actual`.
            return `Unexpected ${this.describeToken(actual)}: expected ';' or the end of the file.`;
        } else if (ruleDescriptions[rule] !== undefined && this.first(rule).has(expected.name)) {
            wanted = ruleDescriptions[rule];
        } else {
            wanted = this.describeTokenType(expected);
        }
        return `${this.unexpected(actual, previous)}: expected ${wanted}.`;
    }

    override buildNotAllInputParsedMessage({ firstRedundant }: NotAllInputOptions): string {
        return `Unexpected ${this.describeToken(firstRedundant)}: expected ';' or the end of the file.`;
    }

    override buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, ruleName }: NoViableAltOptions): string {
        const wanted = ruleDescriptions[stripRuleSuffix(ruleName)]
            ?? this.describeAlternatives(expectedPathsPerAlt.flatMap(paths => paths.map(path => path[0])));
        return `${this.unexpected(actual[0], previous)}: expected ${wanted}.`;
    }

    override buildEarlyExitMessage({ expectedIterationPaths, actual, previous, ruleName }: EarlyExitOptions): string {
        const rule = stripRuleSuffix(ruleName);
        const wanted = this.describeAlternatives(expectedIterationPaths.map(path => path[0]))
            || ruleDescriptions[rule] || 'more input';
        return `${this.unexpected(actual[0], previous)}: expected ${wanted}.`;
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
            return terminalDescriptions[name] ?? name;
        }
        return this.isWordKeyword(name) ? name : `'${name}'`;
    }

    private describeAlternatives(types: ReadonlyArray<TokenType | undefined>): string {
        const described = [...new Set(types.filter(type => type !== undefined).map(type => this.describeTokenType(type)))];
        if (described.length === 0) {
            return '';
        }
        if (described.length > maxListedAlternatives) {
            return `${described.slice(0, maxListedAlternatives).join(', ')}, ...`;
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
