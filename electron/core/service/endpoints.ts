import { randomBytes } from 'node:crypto';

import type { Settings } from '../../../shared/shelfApi.js';
import type { ConnectionHub } from '../mcp/connectionHub.js';
import type { HttpEndpoint } from '../transport/httpServer.js';
import { defaultSocketPath, prepareSocketDir } from '../transport/socketPath.js';
import { type ListeningSocket, listenSocket } from '../transport/socketServer.js';

/** How long a shutdown waits for connections to take what they were sent. */
const SHUTDOWN_GRACE_MS = 2000;

/** Streamable HTTP as the command line asks for it (it wins over settings for that run). */
export interface HttpOverride {
  host: string;
  port: number;
  token?: string;
  noAuth?: boolean;
  allowRemote?: boolean;
}

/**
 * Where clients reach the hub: the local socket, and Streamable HTTP when
 * the command line or settings turn it on, with its bearer token.
 */
export class Endpoints {
  private socket: ListeningSocket | null = null;
  private http: HttpEndpoint | null = null;
  /** The token the running HTTP endpoint checks (the command line's, or the saved one). */
  private token: string | null = null;
  private auth = true;

  constructor(
    private readonly hub: ConnectionHub,
    private readonly override: HttpOverride | undefined,
    private readonly log: (message: string) => void,
  ) {}

  get socketPath(): string {
    return this.socket?.path ?? '';
  }

  get httpUrl(): string | null {
    return this.http?.url ?? null;
  }

  get httpAuth(): boolean {
    return this.auth;
  }

  /** The HTTP endpoint and the token clients must send, while HTTP is on. */
  get httpEndpoint(): { url: string; token: string | null } | null {
    return this.http ? { url: this.http.url, token: this.auth ? this.token : null } : null;
  }

  /** The token in force while HTTP is on (a command-line token is not saved). */
  get tokenInForce(): string | null {
    return this.http ? this.token : null;
  }

  /**
   * Listens on the socket (null: the default path); a live one there (another
   * shelf) is an error. Moving it listens on the new path first, so a bad
   * path leaves the old socket serving.
   */
  async listen(socketPath: string | null): Promise<void> {
    const p = socketPath ?? defaultSocketPath();
    await prepareSocketDir(p, p === defaultSocketPath());
    const next = await listenSocket(p, (s) => this.hub.acceptSocket(s));
    const old = this.socket;
    this.socket = next;
    await old?.close();
  }

  /**
   * Starts HTTP from the command line, or from settings when enabled there.
   * Resolves with a token it had to make (to be saved), or null.
   */
  async startHttp(settings: Settings['http']): Promise<string | null> {
    const cli = this.override;
    if (!cli && !settings.enabled) return null;
    let token: string | null = null;
    let made = false;
    if (!cli?.noAuth) {
      token = cli?.token ?? settings.token ?? null;
      if (!token) {
        token = randomBytes(24).toString('base64url');
        made = true;
      }
    }
    // Loaded only when wanted: the SDK's HTTP transport is a good part of start-up time.
    const [{ startHttp }, { McpHttp }] = await Promise.all([import('../transport/httpServer.js'), import('../mcp/httpMcp.js')]);
    this.http = await startHttp({
      host: cli?.host ?? settings.host,
      port: cli?.port ?? settings.port,
      token,
      allowRemote: cli?.allowRemote ?? false,
      messages: new McpHttp(this.hub),
      memory: this.hub.held,
      log: this.log,
    });
    this.auth = token !== null;
    this.token = token;
    return made ? token : null;
  }

  /** Whether settings decide HTTP (no command-line override). */
  get httpFromSettings(): boolean {
    return this.override === undefined;
  }

  async stopHttp(): Promise<void> {
    await this.http?.close();
    this.http = null;
  }

  /**
   * Stops accepting, closes HTTP, lets `closeConnections` end the live ones,
   * then finishes closing the socket (removing its file), which waits for
   * them: SHUTDOWN_GRACE_MS at most, then the rest are cut.
   */
  async close(closeConnections: () => Promise<void>): Promise<void> {
    const socket = this.socket;
    const closing = socket?.close();
    await this.stopHttp();
    await closeConnections();
    // Connections end gently (what was answered goes out); one whose client
    // reads nothing would hold the shutdown until its stall timeout (30 s).
    const cut = setTimeout(() => socket?.cut(), SHUTDOWN_GRACE_MS);
    cut.unref();
    await closing;
    clearTimeout(cut);
  }
}
