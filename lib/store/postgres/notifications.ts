/**
 * LISTEN on one channel over a connection of its own, reconnecting when it breaks. Notifications
 * sent while it was disconnected are lost: `onReconnect` then lets the owner treat everything as
 * changed (caches are hints; dropping them is always safe).
 */
import { Client, type PoolConfig } from 'pg';

const RETRY_MS = 1000;

export class Listener {
  private client: Client | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly ready: Promise<void>;

  constructor(
    private readonly config: PoolConfig,
    private readonly channel: string,
    private readonly onPayload: (payload: string) => void,
    private readonly onReconnect: () => void = () => undefined,
  ) {
    this.ready = this.connect(false);
  }

  /** Resolves once the first LISTEN is in place (or failed: a retry is scheduled). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ready;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(again: boolean): Promise<void> {
    const client = new Client(this.config);
    client.on('error', () => this.retry(client));
    client.on('end', () => this.retry(client));
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload !== undefined) this.onPayload(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (again) this.onReconnect();
    } catch {
      this.retry(client);
    }
  }

  private retry(client: Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) void this.connect(true);
    }, RETRY_MS);
    this.timer.unref();
  }
}
