/**
 * Zoom and pan of a drawing shown in a panel (the pipeline graph): a view is a scale and the panel
 * position of the drawing's origin. Fitting never shrinks the drawing below the scale at which its
 * 11 px labels stay readable; beyond that the drawing is panned, and zooming out further is the
 * user's choice. Pure functions, unit-tested.
 */

/** A view of a drawing: drawing point (x, y) shows at panel point (x * scale + dx, y * scale + dy). */
export interface View {
    readonly scale: number;
    readonly dx: number;
    readonly dy: number;
}

/** Sizes in pixels. */
export interface Size {
    readonly width: number;
    readonly height: number;
}

/** The smallest and largest zoom the controls reach. */
export const MinScale = 0.25;
export const MaxScale = 3;

/** The smallest scale a fit chooses: labels are 11 px at scale 1, and never drawn smaller by a fit. */
export const ReadableScale = 1;

/** One zoom step of the +/− buttons, keys and a wheel notch. */
export const ZoomStep = 1.2;

const clampScale = (scale: number): number => Math.max(MinScale, Math.min(MaxScale, scale));

/**
 * The view that shows the whole drawing in the panel, as large as fits but at most at its natural
 * size, and never below `minScale` (by default the readable scale): then the drawing's start (top
 * left) is shown and the rest is reached by panning. A drawing smaller than the panel is centred.
 */
export function fitView(drawing: Size, panel: Size, minScale = ReadableScale): View {
    if (drawing.width <= 0 || drawing.height <= 0 || panel.width <= 0 || panel.height <= 0) {
        return { scale: 1, dx: 0, dy: 0 };
    }
    const scale = Math.max(minScale, Math.min(1, panel.width / drawing.width, panel.height / drawing.height));
    // Centred where it fits; where it does not, from its start (the layout has its own margin).
    const offset = (size: number, room: number): number => Math.max(0, (room - size) / 2);
    return clampPan({ scale, dx: offset(drawing.width * scale, panel.width), dy: offset(drawing.height * scale, panel.height) }, drawing, panel);
}

/** Zooms by `factor` keeping the drawing point under the panel point `at` (the pointer, or the centre) in place. */
export function zoomAt(view: View, factor: number, at: { x: number; y: number }, drawing: Size, panel: Size): View {
    const scale = clampScale(view.scale * factor);
    const ratio = scale / view.scale;
    return clampPan({ scale, dx: at.x - (at.x - view.dx) * ratio, dy: at.y - (at.y - view.dy) * ratio }, drawing, panel);
}

/** Moves the drawing by (x, y) panel pixels. */
export function panBy(view: View, x: number, y: number, drawing: Size, panel: Size): View {
    return clampPan({ ...view, dx: view.dx + x, dy: view.dy + y }, drawing, panel);
}

/**
 * Keeps the drawing in reach: along an axis where it is smaller than the panel it is centred; where
 * it is larger, no more than a margin of empty panel shows beyond either edge.
 */
export function clampPan(view: View, drawing: Size, panel: Size, margin = 24): View {
    const axis = (offset: number, size: number, room: number): number => {
        if (size <= room) {
            return (room - size) / 2;
        }
        return Math.min(margin, Math.max(room - size - margin, offset));
    };
    return { scale: view.scale, dx: axis(view.dx, drawing.width * view.scale, panel.width), dy: axis(view.dy, drawing.height * view.scale, panel.height) };
}

/** Whether the whole drawing is in the panel at this view (nothing to pan to). */
export function showsAll(view: View, drawing: Size, panel: Size): boolean {
    const eps = 0.5;
    return view.dx >= -eps && view.dy >= -eps && view.dx + drawing.width * view.scale <= panel.width + eps && view.dy + drawing.height * view.scale <= panel.height + eps;
}

/** The SVG transform of a view. */
export function viewTransform(view: View): string {
    const r = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;
    return `translate(${r(view.dx, 2)} ${r(view.dy, 2)}) scale(${r(view.scale, 3)})`;
}

/** What a key does to the view of the focused drawing, if anything: zoom in or out, fit, actual size, or pan. */
export type ViewCommand = { readonly kind: 'zoom'; readonly factor: number } | { readonly kind: 'fit' } | { readonly kind: 'actual' }
    | { readonly kind: 'pan'; readonly x: number; readonly y: number };

/** The view command of a key (`+`/`=` zoom in, `-` zoom out, `0` fit, `1` actual size, arrows pan by `step`). */
export function keyCommand(key: string, step = 40): ViewCommand | undefined {
    switch (key) {
        case '+':
        case '=':
            return { kind: 'zoom', factor: ZoomStep };
        case '-':
        case '_':
            return { kind: 'zoom', factor: 1 / ZoomStep };
        case '0':
            return { kind: 'fit' };
        case '1':
            return { kind: 'actual' };
        case 'ArrowLeft': return { kind: 'pan', x: step, y: 0 };
        case 'ArrowRight': return { kind: 'pan', x: -step, y: 0 };
        case 'ArrowUp': return { kind: 'pan', x: 0, y: step };
        case 'ArrowDown': return { kind: 'pan', x: 0, y: -step };
        default: return undefined;
    }
}

/** The zoom factor of a wheel event's vertical delta (a notch of about 100 px is one zoom step). */
export function wheelFactor(deltaY: number): number {
    return Math.pow(ZoomStep, -Math.max(-3, Math.min(3, deltaY / 100)));
}
