import type { FolderInfo } from '../../../shared/shelfApi';
import { baseName } from './FolderList';

/** "All folders" or one published folder, by path (the filters of search and history). */
export function FolderSelect({ folders, value, onChange }: { folders: readonly FolderInfo[]; value: string; onChange: (path: string) => void }) {
  return (
    <select className="input input-small" value={value} onChange={(e) => onChange(e.target.value)} aria-label="Folder">
      <option value="">All folders</option>
      {folders.map((f) => (
        <option key={f.path} value={f.path} title={f.path}>
          {baseName(f.path)}
        </option>
      ))}
    </select>
  );
}
