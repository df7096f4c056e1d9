import { describe, expect, it } from 'vitest';

import { credentialsRootProblem, FolderRules } from '../../../../../electron/core/library/rules.js';

const defaults = { showHidden: false, gitignore: true, extraIgnore: [] as string[] };

describe('FolderRules', () => {
  it('hides secrets always and dotfiles unless asked', () => {
    const hidden = new FolderRules('/r', defaults);
    const shown = new FolderRules('/r', { ...defaults, showHidden: true });
    const secrets = [
      '.git/config',
      'node_modules/x/index.js',
      'a/.env',
      '.env.local',
      'id_rsa',
      'keys/id_ed25519.pub',
      'cert.pem',
      'a/b.key',
      '.ssh/config',
      '.aws/credentials',
      '.npmrc',
      '.netrc',
    ];
    for (const rel of secrets) {
      expect(hidden.excludes(rel, false), rel).toBe(true);
      expect(shown.excludes(rel, false), rel).toBe(true);
    }
    for (const dotfile of ['.prettierrc', 'a/.config/x.json', '.github/workflows/ci.yml']) {
      expect(hidden.excludes(dotfile, false), dotfile).toBe(true);
      expect(shown.excludes(dotfile, false), dotfile).toBe(false);
    }
    expect(hidden.excludes('src/index.ts', false)).toBe(false);
    expect(hidden.excludes('.git', true)).toBe(true);
  });

  it('a scan’s shortcut (the folders above are published, so only the name is checked first) gives the same answer as the full rules', () => {
    const names = [
      '.env',
      '.env.prod',
      'server.pem',
      'id_ed25519.pub',
      'credentials.json',
      'service-account-1.json',
      'readme.md',
      '.hidden',
      'wallet.dat',
      'bash_history',
      'state.tfstate.backup',
      'gcloud',
      'node_modules',
      '.git',
      'notes.txt',
      'x.keychain-db',
      'a.key.txt',
      'Makefile',
    ];
    for (const showHidden of [false, true]) {
      const rules = new FolderRules('/r', { ...defaults, showHidden });
      for (const dir of ['', 'a', 'a/b', '.config']) {
        for (const name of names) {
          const rel = dir ? `${dir}/${name}` : name;
          if (dir !== '' && rules.excludes(dir, true)) continue; // a scan never gets there
          for (const isDir of [false, true])
            expect(rules.excludedBy(rel, isDir, true), `${rel} (${isDir ? 'folder' : 'file'}, showHidden ${showHidden})`).toBe(rules.excludedBy(rel, isDir));
        }
      }
    }
  });

  it('applies extra ignore patterns in gitignore syntax', () => {
    const rules = new FolderRules('/r', { ...defaults, extraIgnore: ['*.log', 'build/'] });
    expect(rules.excludes('a/b.log', false)).toBe(true);
    expect(rules.excludes('build', true)).toBe(true);
    expect(rules.excludes('build/x.js', false)).toBe(true);
    expect(rules.excludes('src/build.ts', false)).toBe(false);
  });

  it('knows a credentials folder, or a folder inside one, as a folder to publish (any case), and hides everything in one published before', () => {
    for (const p of [
      '/home/me/.ssh',
      '/home/me/.aws/sso/cache',
      '/home/me/.config/gcloud',
      '/Users/me/.GnuPG',
      '/home/me/.password-store/',
      '/home/me/.kube',
      '/home/me/.docker',
    ]) {
      expect(credentialsRootProblem(p), p).toMatch(/^Holds credentials \(/);
    }
    for (const p of ['/home/me', '/home/me/.config', '/home/me/notes/ssh', '/home/me/.sshd', '/home/me/gcloud', '/'])
      expect(credentialsRootProblem(p), p).toBeNull();
    const rules = new FolderRules('/home/me/.aws', defaults);
    expect(rules.excludedBy('credentials', false)).toBe('secret');
    expect(rules.excludedBy('notes.md', false, true)).toBe('secret');
    expect(new FolderRules('/home/me/notes', defaults).excludedBy('notes.md', false)).toBeNull();
  });
});
