/**
 * Who takes a task the pool posted to a worker behind others in one message (pool.ts, batches):
 * the worker, when it gets to it, or the pool, when it takes it back before that (its client went
 * away, it waited half its time limit, the task before it turned out long, or its worker is being
 * stopped). Both sides decide on a shared cell per post with compare-and-exchange, so exactly one
 * of them wins, without a message round trip.
 *
 * The pool numbers its posts to a worker 1, 2, 3, ... (`seq`) and marks a post's cell POSTED
 * before sending it; the worker moves it to STARTED before performing it, the pool to TAKEN when
 * it takes it back. Cells are reused round a ring: a worker has at most a few batches' worth of
 * posts it has not reached (`RING` is far more), since the pool posts to a worker only once it
 * has answered all it was given.
 */
const RING = 256;
const POSTED = 0;
const STARTED = 1;
const TAKEN = 2;

/** A post's number and state in one Int32 (the number modulo 2^28: posts far apart never share a cell at once). */
const tag = (seq: number, state: number) => (seq & 0x0fffffff) * 4 + state;

export class TaskClaim {
  private readonly cells: Int32Array;

  /** `buffer`: the worker's shared cells; new ones when absent (the pool's side). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(RING * 4)) {
    this.cells = new Int32Array(buffer);
  }

  // ------------------------------------------------------------------------------ pool side

  /** Post `seq` is about to be sent. */
  post(seq: number): void {
    Atomics.store(this.cells, seq % RING, tag(seq, POSTED));
  }

  /** Takes back post `seq`: false when the worker has started it. */
  takeBack(seq: number): boolean {
    return Atomics.compareExchange(this.cells, seq % RING, tag(seq, POSTED), tag(seq, TAKEN)) === tag(seq, POSTED);
  }

  // ---------------------------------------------------------------------------- worker side

  /** The worker is about to start post `seq`: false when the pool took it back (skip it). */
  begin(seq: number): boolean {
    return Atomics.compareExchange(this.cells, seq % RING, tag(seq, POSTED), tag(seq, STARTED)) === tag(seq, POSTED);
  }
}
