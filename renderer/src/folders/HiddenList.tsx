import type { FolderInfo } from '../../../shared/shelfApi';

const RULES: Record<FolderInfo['hidden'][number]['rule'], { label: string; why: string }> = {
  gitignore: { label: '.gitignore', why: 'left out by the folder’s .gitignore files (Options: untick “Honour .gitignore” to publish them)' },
  dotfile: { label: 'Dotfiles', why: 'names starting with a dot (Options: “Publish dotfiles”)' },
  extra: { label: 'Your patterns', why: 'matched by the folder’s “Also ignore” patterns (Options)' },
  secret: { label: 'Secrets', why: 'keys, credentials, .env files, .git and shell histories — never published, whatever the options' },
};

/** What the folder's rules leave out, rule by rule, with examples: so "169 files" of a 2,266-file folder is explained. */
export function HiddenList({ folder }: { folder: FolderInfo }) {
  return (
    <div className="hidden-list" data-testid="hidden-list">
      <p className="small muted">Not published, as of the last full index (a hidden folder counts once):</p>
      <ul>
        {folder.hidden.map((h) => (
          <li key={h.rule}>
            <div className="small">
              <strong>{RULES[h.rule].label}</strong> · {h.count.toLocaleString()} — {RULES[h.rule].why}
            </div>
            <div className="mono hidden-examples" title={h.examples.join('\n')}>
              {h.examples.join('  ')}
              {h.count > h.examples.length ? '  …' : ''}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Entries the rules left out, in all. */
export const hiddenCount = (f: FolderInfo) => f.hidden.reduce((n, h) => n + h.count, 0);
