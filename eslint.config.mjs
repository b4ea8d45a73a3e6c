// Lint rules in Langium's set, plus the one-way dependency direction of the project:
// client → common ← server → engine.
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';
import noStringKeyedObjectLookup from './scripts/eslint/no-string-keyed-object-lookup.mjs';

const restrict = (patterns, message) => ({
    'no-restricted-imports': ['error', { patterns: patterns.map(group => ({ group: [group], message })) }],
});

// The language server does no synchronous disk reads of its own: the project model reads through
// Langium's file-system provider (server/src/project/file-host.ts), the sample-data layer through its
// SampleDisk (engine/src/spark/sample-disk.ts), which the server fills asynchronously. The CLI may.
const syncReads = ['readFileSync', 'statSync', 'lstatSync', 'existsSync', 'readdirSync', 'realpathSync', 'openSync', 'readSync',
    'fstatSync', 'accessSync', 'opendirSync', 'readlinkSync'];
const syncMessage = 'No synchronous disk reads here: use the project model\'s file host (server/src/project/file-host.ts) '
    + 'or the sample layer\'s SampleDisk (engine/src/spark/sample-disk.ts).';
const restrictWithoutSyncReads = (patterns, message) => ({
    ...restrict(patterns, message),
    // `fs.readFileSync(...)` (the project imports `* as fs`); test/lint/no-sync-reads.test.ts also finds named imports.
    'no-restricted-properties': ['error', ...syncReads.map(property => ({ object: 'fs', property, message: syncMessage }))],
});
const enginePatterns = ['vscode', 'vscode-*', 'langium', 'langium/*', '**/server/**', '**/client/**', '**/common/**'];
const engineMessage = 'The engine is a plain library: no VS Code, Langium or project imports.';
const serverPatterns = ['vscode', '**/client/**'];
const serverMessage = 'The server never imports the VS Code API or the client.';

export default tseslint.config(
    { ignores: ['**/generated/**', 'out/**', 'node_modules/**', '.e2e-cache/**', 'test-artifacts/**'] },
    {
        files: ['**/*.ts'],
        extends: [tseslint.configs.recommended],
        plugins: { '@stylistic': stylistic },
        rules: {
            eqeqeq: ['error', 'always', { null: 'ignore' }],
            'no-throw-literal': 'error',
            '@typescript-eslint/no-explicit-any': 'error',
            '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
            '@stylistic/indent': ['error', 4, { SwitchCase: 1 }],
            '@stylistic/quotes': ['error', 'single', { avoidEscape: true }],
            '@stylistic/semi': ['error', 'always'],
        },
    },
    {
        // Names from SQL, YAML and files index Maps, never plain objects (see the rule's file).
        files: ['server/src/**/*.ts', 'engine/src/**/*.ts', 'common/**/*.ts'],
        languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
        plugins: { local: { rules: { 'no-string-keyed-object-lookup': noStringKeyedObjectLookup } } },
        rules: { 'local/no-string-keyed-object-lookup': 'error' },
    },
    {
        files: ['engine/**/*.ts'],
        rules: restrict(enginePatterns, engineMessage),
    },
    {
        files: ['engine/**/*.ts', 'server/src/lowering/**/*.ts'],
        rules: {
            // A replacement string treats `$&`, `$'`, `` $` `` and `$$` as patterns (issue 9): text is
            // replaced by a function or by a literal without `$`, and SQL is built with engine/src/sql/sql.ts.
            'no-restricted-syntax': ['error',
                {
                    selector: "CallExpression[callee.property.name=/^replace(All)?$/][arguments.1.type!='ArrowFunctionExpression'][arguments.1.type!='FunctionExpression'][arguments.1.type!='Literal']",
                    message: 'Pass replace() a function (or a literal without $): a replacement string interprets $-patterns.',
                },
                {
                    selector: "CallExpression[callee.property.name=/^replace(All)?$/] > Literal.arguments:nth-child(2)[value=/\\$/]",
                    message: 'A $ in a replacement string is a pattern; pass replace() a function.',
                },
            ],
        },
    },
    {
        files: ['server/**/*.ts'],
        rules: restrict(serverPatterns, serverMessage),
    },
    {
        files: ['server/src/**/*.ts'],
        // The CLI only. The sample scaffolding and the sample-data handler read through the sample
        // catalog's asynchronous reads (SampleCatalog.reads, readSettled) like the rest of the server.
        ignores: ['server/src/cli/**'],
        rules: restrictWithoutSyncReads(serverPatterns, serverMessage),
    },
    {
        files: ['engine/src/spark/sample-*.ts', 'engine/src/catalog/**/*.ts'],
        ignores: ['engine/src/spark/sample-disk.ts'],
        rules: restrictWithoutSyncReads(enginePatterns, engineMessage),
    },
    {
        files: ['client/**/*.ts'],
        rules: restrict(['langium', 'langium/*', '**/server/**', '**/engine/**'],
            'The client talks to the server only through common/protocol.ts.'),
    },
    {
        files: ['client/webview/**/*.ts'],
        rules: {
            ...restrict(['vscode', 'vscode-*', 'langium', 'langium/*', '**/server/**', '**/engine/**', '**/src/**'],
                'The webview script runs in the browser and imports only common/ message types and its own modules.'),
            // Data is rendered as text: nothing in the webview may parse a string as HTML.
            'no-restricted-properties': ['error',
                ...['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'write', 'writeln', 'createContextualFragment'].map(property => ({
                    property, message: 'Render data with textContent / setAttribute (client/webview/dom.ts), never as HTML.',
                }))],
        },
    },
    {
        files: ['common/**/*.ts'],
        rules: restrict(['vscode', 'langium', 'langium/*', '**/server/**', '**/client/**', '**/engine/**'],
            'common/ holds only protocol and message types.'),
    },
);
