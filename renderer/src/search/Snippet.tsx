import { snippetParts } from '../../../shared/snippetMarks';

/** A snippet's **marked** words as <mark>, everything else as text (never HTML from a file). */
export function Snippet({ text }: { text: string }) {
  return (
    <span className="hit-snippet mono">{snippetParts(text).map((p, i) => (p.marked ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}</span>
  );
}
