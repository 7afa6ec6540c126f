const LABELS: Record<string, string> = { read: 'Read', write: 'Changes data', destructive: 'Destructive' };

/** The risk of a call in words and colour; egress (reaching outside) is shown beside it. */
export function RiskBadge({ risk, egress }: { risk: string; egress?: boolean | undefined }) {
  return (
    <span className="risk">
      <span className={`badge risk-${risk}`}>{LABELS[risk] ?? risk}</span>
      {egress ? <span className="badge risk-egress">Reaches the internet</span> : null}
    </span>
  );
}
