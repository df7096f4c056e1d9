import { useCopy } from './useCopy';

export function CopyButton({ text, label = 'Copy', className = '' }: { text: string; label?: string; className?: string }) {
  const [copied, copy] = useCopy();
  return (
    <button type="button" className={`btn btn-small ${className}`} onClick={() => copy('x', text)} aria-label={`${label}: ${text.slice(0, 80)}`}>
      {copied ? 'Copied' : label}
    </button>
  );
}
