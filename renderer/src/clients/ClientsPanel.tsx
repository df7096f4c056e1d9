import './clients.css';

import type { ClientInfo, ServerStatus } from '../../../shared/shelfApi';
import { formatClock } from '../format';
import { CopyButton } from '../ui/CopyButton';
import { Elapsed } from '../ui/Elapsed';
import { useClientList } from './useClientList';

/** Where the server listens and who is connected. */
export function ClientsPanel({
  status,
  clients: announced,
  httpToken,
  listClients,
}: {
  status: ServerStatus | null;
  clients: ClientInfo[];
  httpToken: string | null;
  /** The server's list now: the `clients` event comes when clients come, go or name themselves, not with every request, so the counts are asked for while this tab shows. */
  listClients?: () => Promise<ClientInfo[]>;
}) {
  const clients = useClientList(announced, listClients);
  return (
    <section className="clients" aria-label="Server and clients">
      <div className="cards">
        <div className="card">
          <div className="card-label">Socket</div>
          <div className="card-value mono ellipsis" data-testid="socket-path" title={status?.socketPath}>
            {status?.socketPath ?? '…'}
          </div>
          {status && <CopyButton text={status.socketPath} label="Copy path" />}
        </div>
        <div className="card">
          <div className="card-label">Streamable HTTP</div>
          {status?.httpUrl ? (
            <>
              <div className="card-value mono ellipsis" data-testid="http-url" title={status.httpUrl}>
                {status.httpUrl}
              </div>
              <div className="row-start">
                <CopyButton text={status.httpUrl} label="Copy URL" />
                {status.httpAuth && httpToken ? (
                  <CopyButton text={httpToken} label="Copy token" />
                ) : (
                  <span className="muted small">no token (loopback only)</span>
                )}
              </div>
            </>
          ) : (
            <div className="card-value">
              <span className="muted">Off</span>
            </div>
          )}
        </div>
        <div className="card">
          <div className="card-label">Uptime</div>
          <div className="card-value">{status ? <Elapsed since={status.startedAt} /> : '…'}</div>
          <div className="muted small">version {status?.version}</div>
        </div>
        <div className="card">
          <div className="card-label">Published</div>
          <div className="card-value">{status ? `${status.files.toLocaleString()} files` : '…'}</div>
          <div className="muted small">
            in {status?.folders ?? 0} {status?.folders === 1 ? 'folder' : 'folders'}
          </div>
        </div>
      </div>
      <h3 className="section-title">Connected clients ({clients.length})</h3>
      {clients.length === 0 ? (
        <div className="empty-small">
          <p>No client is connected. Set one up under “Connect a client”; it appears here when it starts.</p>
        </div>
      ) : (
        <table className="table" data-testid="clients-table">
          <thead>
            <tr>
              <th>#</th>
              <th>Client</th>
              <th>Transport</th>
              <th>Protocol</th>
              <th>Connected since</th>
              <th className="num">Requests</th>
            </tr>
          </thead>
          <tbody>
            {clients.map((c) => (
              <tr key={c.id}>
                <td className="muted">{c.id}</td>
                <td>
                  {c.name ?? <span className="muted">{c.protocolVersion ? 'unnamed client' : 'not initialized yet'}</span>}{' '}
                  {c.version && <span className="muted">{c.version}</span>}
                </td>
                <td>{c.transport}</td>
                <td data-testid="client-protocol">{c.protocolVersion ?? <span className="muted">—</span>}</td>
                <td>
                  {formatClock(c.connectedAt).slice(0, 8)}{' '}
                  <span className="muted">
                    (<Elapsed since={c.connectedAt} />)
                  </span>
                </td>
                <td className="num">{c.requests.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
