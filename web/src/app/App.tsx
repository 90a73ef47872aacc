import { RunSummary } from './RunSummary';
import { useDefaultRun } from './useDefaultRun';

export function App() {
  const run = useDefaultRun();
  const version = run.phase === 'starting' ? null : run.version;
  return (
    <main>
      <header>
        <h1>sendpath</h1>
        <p>The Linux TCP send path, simulated in your browser.</p>
      </header>
      <section aria-labelledby="engine-heading">
        <h2 id="engine-heading">Engine</h2>
        <p role="status">
          {version !== null
            ? 'Engine ready'
            : run.phase === 'failed'
              ? `Engine failed: ${run.error}`
              : 'Starting the engine…'}
        </p>
        {version !== null && (
          <dl>
            <dt id="engine-version">Engine version</dt>
            <dd aria-labelledby="engine-version">{version}</dd>
          </dl>
        )}
      </section>
      <section aria-labelledby="scenario-heading">
        <h2 id="scenario-heading">
          Scenario <code>{run.scenario.path}</code>
        </h2>
        <p role="status">
          {run.phase === 'starting' && 'Waiting for the engine…'}
          {run.phase === 'running' && 'Running…'}
          {run.phase === 'done' && 'Finished'}
          {run.phase === 'failed' && version !== null && `Run failed: ${run.error}`}
        </p>
        {run.phase === 'done' && <RunSummary result={run.result} />}
      </section>
    </main>
  );
}
