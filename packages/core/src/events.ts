import { Heap } from "heap-js";

/** One queued event. */
export interface QueuedEvent<T> {
  readonly time: number;
  /** Push order: events at one time pop in the order they were pushed. */
  readonly seq: number;
  readonly kind: number;
  readonly version: number;
  readonly payload: T | null;
}

/**
 * The engine's event queue: a heap-js binary min-heap ordered by (time, seq), where `seq` is the
 * push order, so events at one time pop in the order they were pushed. A typed-array heap that
 * allocates nothing per event was tried (2026-11-22) and measured no faster on the engine
 * benchmarks (100k and 1M jobs), so the queue stays on heap-js, the dependency the project chose.
 * Internal (not exported from the package).
 *
 * Complexity: `push`/`pop` O(log n), the `top*` reads O(1).
 */
export class EventQueue<T> {
  private readonly heap = new Heap<QueuedEvent<T>>((a, b) => a.time - b.time || a.seq - b.seq);
  private nextSeq = 0;

  /** Number of queued events. */
  get size(): number {
    return this.heap.length;
  }

  /** The first event (time, kind, version, payload), or undefined when the queue is empty. */
  top(): QueuedEvent<T> | undefined {
    return this.heap.peek();
  }

  /** Time of the first event (call only when `size > 0`). */
  topTime(): number {
    return this.heap.peek()!.time;
  }

  topKind(): number {
    return this.heap.peek()!.kind;
  }

  topVersion(): number {
    return this.heap.peek()!.version;
  }

  topPayload(): T | null {
    return this.heap.peek()!.payload;
  }

  /**
   * Queues an event; ties in `time` pop in push order. Through heap-js's `add` (what its `push`
   * does with one element) rather than `push`, whose rest-parameter copy built an array per event.
   */
  push(time: number, kind: number, payload: T | null, version: number): void {
    this.heap.add({ time, seq: this.nextSeq++, kind, version, payload });
  }

  /** Removes the first event (call only when `size > 0`). */
  pop(): void {
    this.heap.pop();
  }
}
