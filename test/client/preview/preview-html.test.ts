import { describe, expect, test } from 'vitest';
import { createNonce, escapeAttribute, isSafeCspSource, previewCsp, previewHtml } from '../../../client/src/preview/preview-html.js';

const input = {
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    nonce: 'abcDEF0123456789abcDEF0123456789',
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/out/webview/main.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/out/webview/preview.css',
};

describe('previewHtml', () => {
    test('the page carries the strict CSP: nothing but our nonce script, our styles and images', () => {
        const html = previewHtml(input);
        const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
        expect(csp).toBe(`default-src 'none'; style-src ${input.cspSource}; script-src 'nonce-${input.nonce}'; img-src ${input.cspSource} data:;`
            .replace(/'/g, '&#39;'));
        expect(html).not.toMatch(/unsafe-inline|unsafe-eval|https?:\/\/(?!file\+\.vscode-resource)/);
        expect(html).not.toMatch(/<iframe/i);
    });

    test('exactly one script, loaded from the bundle with the nonce, and no inline script or style', () => {
        const html = previewHtml(input);
        const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
        expect(scripts).toHaveLength(1);
        expect(scripts[0][1]).toBe(` nonce="${input.nonce}" src="${input.scriptUri}"`);
        expect(scripts[0][2]).toBe('');
        expect(html).not.toMatch(/<style|style="/);
        expect(html).toContain(`<link rel="stylesheet" href="${input.styleUri}">`);
    });

    test('initial state is an escaped data attribute: markup in it stays text', () => {
        const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
        const html = previewHtml({ ...input, initial: { dataset: hostile, view: 'results' } });
        expect(html).not.toContain('<img');
        expect(html).not.toContain('<script>alert');
        const attribute = /<body data-initial="([^"]*)">/.exec(html)?.[1];
        expect(attribute).toBeDefined();
        const decoded = attribute!.replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        expect(JSON.parse(decoded)).toEqual({ dataset: hostile, view: 'results' });
    });

    test('a nonce or CSP source that could widen the policy is refused', () => {
        expect(() => previewHtml({ ...input, nonce: 'short' })).toThrow(/nonce/);
        expect(() => previewHtml({ ...input, nonce: 'abc\' \'unsafe-inline' })).toThrow(/nonce/);
        expect(() => previewHtml({ ...input, cspSource: 'https://a; script-src *' })).toThrow(/CSP source/);
        expect(() => previewHtml({ ...input, cspSource: '' })).toThrow(/CSP source/);
        expect(() => previewHtml({ ...input, cspSource: '\'self\' \'unsafe-inline\'' })).toThrow(/CSP source/);
        expect(() => previewHtml({ ...input, cspSource: 'https://a,https://b' })).toThrow(/CSP source/);
    });

    test('the CSP sources VS Code and code-server give are accepted', () => {
        for (const cspSource of ['\'self\' https://*.vscode-cdn.net', 'https://file+.vscode-resource.vscode-cdn.net', 'vscode-webview://abc123', 'http://127.0.0.1:8080']) {
            expect(isSafeCspSource(cspSource), cspSource).toBe(true);
            expect(previewHtml({ ...input, cspSource })).toContain(`style-src ${cspSource.replace(/'/g, '&#39;')};`);
        }
    });
});

describe('createNonce', () => {
    test('32 letters and digits, different each time', () => {
        const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
        expect(nonces.size).toBe(50);
        for (const nonce of nonces) {
            expect(nonce).toMatch(/^[A-Za-z0-9]{32}$/);
        }
    });

    test('the CSP uses the nonce verbatim', () => {
        const nonce = createNonce();
        expect(previewCsp('vscode-src', nonce)).toContain(`script-src 'nonce-${nonce}';`);
    });
});

test('escapeAttribute escapes the five characters that matter in an attribute', () => {
    expect(escapeAttribute('a&b<c>d"e\'f')).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
});
