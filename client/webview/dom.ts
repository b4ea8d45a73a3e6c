/**
 * Tiny DOM builders for the webview. Every piece of data becomes a text node or an attribute value
 * set through the DOM API: nothing is ever parsed as HTML, so a value like `<img onerror=…>` shows as
 * text. Styles are set through the CSSOM (allowed by the CSP, unlike `style` attributes).
 */

/** Attribute values; `undefined` and `false` leave the attribute out. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** A child: a node, or text. */
export type Child = Node | string | number | undefined | null | false;

function apply(element: Element, attributes: Attributes | undefined, children: Child[]): void {
    for (const [name, value] of Object.entries(attributes ?? {})) {
        if (value === undefined || value === false) {
            continue;
        }
        // Event handlers are attached with addEventListener only, never as attributes.
        if (/^on/i.test(name) || name.toLowerCase() === 'style') {
            throw new Error(`Attribute '${name}' is not allowed.`);
        }
        element.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children) {
        if (child === undefined || child === null || child === false) {
            continue;
        }
        element.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
    }
}

/** Creates an HTML element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): HTMLElementTagNameMap[K] {
    const element = document.createElement(tag);
    apply(element, attributes, children);
    return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes and children. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Child[]): SVGElementTagNameMap[K] {
    const element = document.createElementNS(SVG_NS, tag);
    apply(element, attributes, children);
    return element;
}

/** Replaces all children of a node. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
    parent.replaceChildren();
    apply(parent, undefined, children);
}

/** Makes an element act as a button for the keyboard (Enter and Space) as well as the mouse. */
export function onActivate(element: Element, handler: (event: Event) => void): void {
    element.addEventListener('click', handler);
    element.addEventListener('keydown', event => {
        const key = (event as KeyboardEvent).key;
        if (key === 'Enter' || key === ' ') {
            event.preventDefault();
            handler(event);
        }
    });
}

/** Formats a count with thousands separators. */
export function count(n: number): string {
    return n.toLocaleString('en-US');
}
