import type { RunResult } from '../engine/generated/RunResult';
import { formatBitRate, formatCount, formatSeconds } from '../model/format';

/** The headline numbers of one run, and one row per application. */
export function RunSummary({ result }: { result: RunResult }) {
  return (
    <>
      <dl>
        <dt id="run-kernel">Kernel profile</dt>
        <dd aria-labelledby="run-kernel">{result.kernel}</dd>
        <dt id="run-elapsed">Simulated time</dt>
        <dd aria-labelledby="run-elapsed">{formatSeconds(result.elapsed_s)}</dd>
        <dt id="run-events">Events processed</dt>
        <dd aria-labelledby="run-events">{formatCount(result.events)}</dd>
      </dl>
      <table>
        <caption>Applications</caption>
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Application</th>
            <th scope="col">Flow</th>
            <th scope="col">Bytes written</th>
            <th scope="col">Bytes read</th>
            <th scope="col">Throughput</th>
            <th scope="col">Finished after</th>
          </tr>
        </thead>
        <tbody>
          {result.apps.map((app) => (
            <tr key={`${app.host}/${app.kind}/${app.flow}`}>
              <td>{app.host}</td>
              <td>{app.kind}</td>
              <td>{app.flow}</td>
              <td>{formatCount(app.bytes_written)}</td>
              <td>{formatCount(app.bytes_read)}</td>
              <td>{formatBitRate(app.throughput_bps)}</td>
              <td>{app.finished_s === null ? 'not finished' : formatSeconds(app.finished_s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.warnings.length > 0 && (
        <ul aria-label="Warnings">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </>
  );
}
