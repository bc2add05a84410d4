import type { StrategyResultPayload } from '../api.js';
import { Coordinates } from './coordinates.js';

/** One strategy's evidence, ranked, each item with its coordinates, reasons and gold mark. */
export function StrategyColumn({ result, onShow }: { result: StrategyResultPayload; onShow: (id: string) => void }) {
  const gold = result.gold;
  const total = gold ? gold.found.length + gold.missed.length : 0;
  return (
    <section className="panel column" aria-label={`${result.strategy} evidence`} data-strategy={result.strategy}>
      <h3>
        {result.strategy} <small>{result.evidence.length} items · {result.ms.toFixed(0)} ms</small>
      </h3>
      {gold && total > 0 ? (
        <div className={`gold-score ${gold.missed.length === 0 ? 'all' : gold.found.length === 0 ? 'none' : 'some'}`} data-testid="gold-score">
          gold turns found: {gold.found.length} / {total}
          {gold.missed.length > 0 ? <span> · missed {gold.missed.join(', ')}</span> : null}
        </div>
      ) : null}
      <ol className="evidence">
        {result.evidence.map((item) => (
          <li key={item.unit.id} className={item.goldTurns.length > 0 ? 'hit' : gold ? 'miss' : ''} data-gold={item.goldTurns.length > 0 ? 'hit' : undefined}>
            <div className="evidence-head">
              <span className="rank">{item.rank}</span>
              <span className={`kind layer-${item.unit.kind}`}>{item.unit.kind}</span>
              <span className="score">{item.score.toFixed(3)}</span>
              {item.goldTurns.length > 0 ? <span className="hit-mark">✓ gold {item.goldTurns.join(', ')}</span> : null}
              <button className="link show-node" onClick={() => onShow(item.unit.id)} title="open this unit in the Explore tab">
                show
              </button>
            </div>
            <p>{item.unit.text}</p>
            <Coordinates value={item.coordinates} />
            <div className="sources">
              from {item.sources.map((source) => `${source.sessionId}/${source.turnId}`).slice(0, 4).join(', ')}
              {item.sources.length > 4 ? ` +${item.sources.length - 4}` : ''}
            </div>
            {item.reasons.length > 0 ? (
              <details>
                <summary>why ({item.reasons.length})</summary>
                <ul>
                  {item.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {result.strategy !== 'active' && result.trace.length > 0 ? (
        <details className="column-trace">
          <summary>trace ({result.trace.length} steps)</summary>
          <ol>
            {result.trace.map((step, index) => (
              <li key={index}>
                <strong>{step.action}</strong> {step.output ? JSON.stringify(step.output).slice(0, 240) : ''}
                {step.reason ? <em> — {step.reason}</em> : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
