import type { WebviewMessage } from '../../../common/preview-messages.js';
import type { PreviewAction, PreviewState } from '../model/state.js';

/** What a view can do: change the state, and talk to the extension. */
export interface ViewContext {
    dispatch(action: PreviewAction): void;
    post(message: WebviewMessage): void;
    state(): PreviewState;
}

/** A view of the preview: built once, updated with every new state. */
export interface View {
    readonly element: HTMLElement;
    update(state: PreviewState): void;
}
