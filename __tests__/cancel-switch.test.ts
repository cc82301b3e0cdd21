import { CancelSwitch } from '../lib/cancel-switch';

describe('cancel switch: the cancel signal of a job', () => {
  it('calls each listener once on the first abort, not one removed or added after it', () => {
    const cancel = new CancelSwitch();
    const calls: string[] = [];
    const kept = () => calls.push('kept');
    const removed = () => calls.push('removed');
    cancel.addEventListener('abort', kept);
    cancel.addEventListener('abort', removed);
    cancel.removeEventListener('abort', removed);
    expect(cancel.aborted).toBe(false);
    cancel.abort();
    cancel.abort();
    cancel.addEventListener('abort', () => calls.push('late'));
    expect(cancel.aborted).toBe(true);
    expect(calls).toEqual(['kept']);
  });
});
