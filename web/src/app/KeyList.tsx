// A list of keyboard shortcuts: each key and what it does (the simulator's help dialog, the
// presenter's key list).

export function KeyList({ keys }: { keys: readonly (readonly [string, string])[] }) {
  return (
    <dl>
      {keys.map(([k, what]) => (
        <div key={k}>
          <dt>
            <kbd>{k}</kbd>
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}
