/**
 * The preview webview's HTML: a pure function of the CSP source, a nonce, the script and style
 * URIs and a small initial state. No result data ever goes into the HTML; rows arrive later as typed
 * `postMessage`s. The initial state travels as an escaped `data-*` attribute, not as script.
 * No `vscode` import, so it is unit-tested with vitest.
 */

/** What the page is built from. */
export interface PreviewHtmlInput {
    /** `webview.cspSource`: the origin the webview may load our script and style from. */
    readonly cspSource: string;
    /** A fresh random nonce per render: only the script carrying it runs. */
    readonly nonce: string;
    /** `webview.asWebviewUri(out/webview/main.js)`. */
    readonly scriptUri: string;
    /** `webview.asWebviewUri(out/webview/preview.css)`. */
    readonly styleUri: string;
    /** The initial state (view, dataset, document, workspace trust), JSON in a data attribute. */
    readonly initial?: Readonly<Record<string, unknown>>;
}

/** Escapes text for a double-quoted HTML attribute value (and for element content). */
export function escapeAttribute(value: string): string {
    return value.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' }[c]!));
}

/** A random nonce of 32 letters and digits (from the platform's cryptographic random source). */
export function createNonce(): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = new Uint8Array(32);
    globalThis.crypto.getRandomValues(bytes);
    return Array.from(bytes, b => alphabet[b % alphabet.length]).join('');
}

/** The Content-Security-Policy of the preview: nothing but our own script (by nonce), style and images. */
export function previewCsp(cspSource: string, nonce: string): string {
    return `default-src 'none'; style-src ${cspSource}; script-src 'nonce-${nonce}'; img-src ${cspSource} data:;`;
}

/** One CSP source expression: `'self'`, a scheme (`https:`), or a host with optional scheme, wildcard, port and path. */
const SOURCE_EXPRESSION = /^(?:'self'|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[a-z0-9+-]+(?:\.[a-z0-9+-]+)*(?::\d+|:\*)?(?:\/[^\s;,'"]*)?)$/i;

/**
 * Whether `webview.cspSource` is a list of plain source expressions (VS Code gives e.g.
 * `'self' https://*.vscode-cdn.net`): nothing that could end the directive or add a keyword.
 */
export function isSafeCspSource(cspSource: string): boolean {
    const tokens = cspSource.trim().split(/\s+/);
    return cspSource.trim() !== '' && tokens.every(t => SOURCE_EXPRESSION.test(t));
}

/** Builds the preview page. Throws on a nonce or CSP source that could break out of the policy. */
export function previewHtml(input: PreviewHtmlInput): string {
    if (!/^[A-Za-z0-9+/=]{16,}$/.test(input.nonce)) {
        throw new Error('The webview nonce must be at least 16 base64 characters.');
    }
    if (!isSafeCspSource(input.cspSource)) {
        throw new Error(`Invalid CSP source '${input.cspSource}'.`);
    }
    const initial = escapeAttribute(JSON.stringify(input.initial ?? {}));
    return [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="UTF-8">',
        `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(previewCsp(input.cspSource.trim(), input.nonce))}">`,
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
        `<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">`,
        '<title>Pipeline SQL Preview</title>',
        '</head>',
        `<body data-initial="${initial}">`,
        `<script nonce="${input.nonce}" src="${escapeAttribute(input.scriptUri)}"></script>`,
        '</body>',
        '</html>',
    ].join('\n');
}
