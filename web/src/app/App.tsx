import { useEngineSlice } from './useEngineSlice';

export function App() {
  const engine = useEngineSlice();
  return (
    <main>
      <header>
        <h1>sendpath</h1>
        <p>The Linux TCP send path, simulated in your browser.</p>
      </header>
      <section aria-labelledby="engine-heading">
        <h2 id="engine-heading">Engine</h2>
        <p role="status">
          {engine.phase === 'starting' && 'Starting the engine…'}
          {engine.phase === 'ready' && 'Engine ready'}
          {engine.phase === 'failed' && `Engine failed: ${engine.error}`}
        </p>
        {engine.phase === 'ready' && (
          <dl>
            <dt id="engine-version">Engine version</dt>
            <dd aria-labelledby="engine-version">{engine.version}</dd>
            <dt id="engine-wire-bytes">
              Wire bytes of one full-MSS segment (computed by the engine)
            </dt>
            <dd aria-labelledby="engine-wire-bytes">{engine.wireBytesOfFullMssFrame}</dd>
          </dl>
        )}
      </section>
    </main>
  );
}
