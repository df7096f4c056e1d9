import { describe, expect, it } from 'vitest';

import { escapeSnippet, snippetParts } from '../../../shared/snippetMarks.js';

describe('snippet marks', () => {
  it('reads our marks as marked runs and the escaped text as it was', () => {
    const snippet = `${escapeSnippet('**Note:** a\\b ')}**otter**${escapeSnippet(' ate *.fish*')}`;
    expect(snippet).toBe('\\*\\*Note:\\*\\* a\\\\b **otter** ate \\*.fish\\*');
    expect(snippetParts(snippet)).toEqual([
      { text: '**Note:** a\\b ', marked: false },
      { text: 'otter', marked: true },
      { text: ' ate *.fish*', marked: false },
    ]);
  });

  it('keeps a trailing backslash as text; an unclosed mark runs to the end', () => {
    expect(snippetParts('a **b')).toEqual([
      { text: 'a ', marked: false },
      { text: 'b', marked: true },
    ]);
    expect(snippetParts('end\\')).toEqual([{ text: 'end\\', marked: false }]);
  });
});
