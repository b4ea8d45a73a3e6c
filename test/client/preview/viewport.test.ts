import { describe, expect, test } from 'vitest';
import {
    clampPan, fitView, keyCommand, MaxScale, MinScale, panBy, showsAll, viewTransform, wheelFactor, zoomAt, ZoomStep,
} from '../../../client/webview/model/viewport.js';

const panel = { width: 600, height: 400 };

describe('fitView', () => {
    test('a drawing smaller than the panel is shown at its natural size, centred', () => {
        const view = fitView({ width: 300, height: 200 }, panel);
        expect(view).toEqual({ scale: 1, dx: 150, dy: 100 });
        expect(showsAll(view, { width: 300, height: 200 }, panel)).toBe(true);
    });

    test('a larger drawing is not shrunk below the readable scale: its start shows and the rest pans', () => {
        const drawing = { width: 1400, height: 300 };
        const view = fitView(drawing, panel);
        expect(view.scale).toBe(1);
        // The left edge shows, the drawing is centred vertically.
        expect(view.dx).toBe(0);
        expect(view.dy).toBe(50);
        expect(showsAll(view, drawing, panel)).toBe(false);
    });

    test('"show the whole graph" may go below the readable scale', () => {
        const drawing = { width: 1200, height: 200 };
        const view = fitView(drawing, panel, 0.25);
        expect(view.scale).toBe(0.5);
        expect(showsAll(view, drawing, panel)).toBe(true);
    });

    test('an empty drawing or panel gets the identity view', () => {
        expect(fitView({ width: 0, height: 0 }, panel)).toEqual({ scale: 1, dx: 0, dy: 0 });
        expect(fitView({ width: 100, height: 100 }, { width: 0, height: 0 })).toEqual({ scale: 1, dx: 0, dy: 0 });
    });
});

describe('zoom and pan', () => {
    const drawing = { width: 800, height: 600 };

    test('zooming keeps the point under the pointer in place', () => {
        const start = { scale: 1, dx: 0, dy: 0 };
        const zoomed = zoomAt(start, 2, { x: 100, y: 80 }, drawing, panel);
        expect(zoomed.scale).toBe(2);
        // Drawing point (100, 80) was at panel (100, 80) and still is.
        expect(100 * zoomed.scale + zoomed.dx).toBeCloseTo(100);
        expect(80 * zoomed.scale + zoomed.dy).toBeCloseTo(80);
    });

    test('zoom stops at its limits', () => {
        let view = { scale: 1, dx: 0, dy: 0 };
        for (let i = 0; i < 30; i++) {
            view = zoomAt(view, ZoomStep, { x: 0, y: 0 }, drawing, panel);
        }
        expect(view.scale).toBe(MaxScale);
        for (let i = 0; i < 60; i++) {
            view = zoomAt(view, 1 / ZoomStep, { x: 0, y: 0 }, drawing, panel);
        }
        expect(view.scale).toBe(MinScale);
    });

    test('panning moves the drawing but never leaves more than a margin of empty panel beyond an edge', () => {
        const view = { scale: 1, dx: 0, dy: 0 };
        expect(panBy(view, -50, -30, drawing, panel)).toEqual({ scale: 1, dx: -50, dy: -30 });
        expect(panBy(view, 500, 500, drawing, panel)).toEqual({ scale: 1, dx: 24, dy: 24 });
        expect(panBy(view, -5000, -5000, drawing, panel)).toEqual({ scale: 1, dx: 600 - 800 - 24, dy: 400 - 600 - 24 });
        // Along an axis where the drawing is smaller than the panel it stays centred.
        expect(clampPan({ scale: 0.5, dx: -100, dy: 7 }, drawing, panel)).toEqual({ scale: 0.5, dx: 100, dy: 50 });
    });

    test('keys: + and - zoom, 0 fits, 1 is actual size, arrows pan; other keys do nothing', () => {
        expect(keyCommand('+')).toEqual({ kind: 'zoom', factor: ZoomStep });
        expect(keyCommand('=')).toEqual({ kind: 'zoom', factor: ZoomStep });
        expect(keyCommand('-')).toEqual({ kind: 'zoom', factor: 1 / ZoomStep });
        expect(keyCommand('0')).toEqual({ kind: 'fit' });
        expect(keyCommand('1')).toEqual({ kind: 'actual' });
        expect(keyCommand('ArrowLeft')).toEqual({ kind: 'pan', x: 40, y: 0 });
        expect(keyCommand('ArrowDown')).toEqual({ kind: 'pan', x: 0, y: -40 });
        expect(keyCommand('Enter')).toBeUndefined();
    });

    test('a wheel notch down zooms out one step, up zooms in; a fast wheel is capped', () => {
        expect(wheelFactor(100)).toBeCloseTo(1 / ZoomStep);
        expect(wheelFactor(-100)).toBeCloseTo(ZoomStep);
        expect(wheelFactor(-10_000)).toBeCloseTo(ZoomStep ** 3);
    });

    test('the transform is an SVG transform attribute value', () => {
        expect(viewTransform({ scale: 1.23456, dx: 10.126, dy: -3 })).toBe('translate(10.13 -3) scale(1.235)');
    });
});
