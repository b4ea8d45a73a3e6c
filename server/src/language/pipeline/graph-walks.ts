/**
 * Walks over the dataset graph of a pipeline, written with explicit stacks: a pipeline is user input,
 * and a chain of thousands of datasets (or a cycle through all of them) must not exhaust the call
 * stack the way a recursive walk would. The pipeline model, schema inference and the validation all
 * walk the graph through these.
 */

/** What {@link depthFirst} calls on the way. */
export interface DepthFirstVisitor<T> {
    /** Nodes not to enter (already done elsewhere, or in progress in an outer computation). */
    readonly skip?: (node: T) => boolean;
    /** A node is entered: it is on the current path from now until {@link leave}. */
    readonly enter?: (node: T) => void;
    /** Every successor of the node has been left (or skipped, or was on the path): post-order. */
    readonly leave: (node: T) => void;
}

/**
 * Depth-first walk from `roots` over `next`, each node entered at most once, in the order a recursive
 * walk would take: `enter` on the way down, `leave` in post-order. A successor that is on the current
 * path (a cycle) is not entered again.
 */
export function depthFirst<T>(roots: Iterable<T>, next: (node: T) => Iterable<T>, visitor: DepthFirstVisitor<T>): void {
    const seen = new Set<T>();
    const stack: Array<{ node: T; successors: Iterator<T> }> = [];
    const push = (node: T): void => {
        seen.add(node);
        visitor.enter?.(node);
        stack.push({ node, successors: next(node)[Symbol.iterator]() });
    };
    for (const root of roots) {
        if (seen.has(root) || visitor.skip?.(root)) {
            continue;
        }
        push(root);
        while (stack.length > 0) {
            const top = stack[stack.length - 1];
            const step = top.successors.next();
            if (step.done) {
                stack.pop();
                visitor.leave(top.node);
            } else if (!seen.has(step.value) && !visitor.skip?.(step.value)) {
                push(step.value);
            }
        }
    }
}

/**
 * The strongly connected components of a graph (Tarjan's algorithm with an explicit stack), each in
 * the order the nodes were found; components come out successors first.
 */
export function stronglyConnectedComponents<T>(nodes: Iterable<T>, next: (node: T) => Iterable<T>): T[][] {
    const index = new Map<T, number>();
    const low = new Map<T, number>();
    const onStack = new Set<T>();
    const component: T[] = [];
    const components: T[][] = [];
    const frames: Array<{ node: T; successors: Iterator<T> }> = [];
    let counter = 0;
    const open = (node: T): void => {
        index.set(node, counter);
        low.set(node, counter);
        counter++;
        component.push(node);
        onStack.add(node);
        frames.push({ node, successors: next(node)[Symbol.iterator]() });
    };
    for (const root of nodes) {
        if (index.has(root)) {
            continue;
        }
        open(root);
        while (frames.length > 0) {
            const frame = frames[frames.length - 1];
            const step = frame.successors.next();
            if (!step.done) {
                const successor = step.value;
                if (!index.has(successor)) {
                    open(successor);
                } else if (onStack.has(successor)) {
                    low.set(frame.node, Math.min(low.get(frame.node)!, index.get(successor)!));
                }
                continue;
            }
            frames.pop();
            const parent = frames[frames.length - 1];
            if (parent) {
                low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
            }
            if (low.get(frame.node) === index.get(frame.node)) {
                const members: T[] = [];
                let member: T;
                do {
                    member = component.pop()!;
                    onStack.delete(member);
                    members.push(member);
                } while (member !== frame.node);
                components.push(members);
            }
        }
    }
    return components;
}
