import { describe, expect, it } from 'vitest';

import { highlightHtml, htmlLines } from '../../../../../renderer/src/preview/highlight';

describe('htmlLines', () => {
  it('cuts highlighted HTML into lines that each close what they open', () => {
    const html = highlightHtml('/* one\n   two */\nconst a = "x";\n', 'typescript') as string;
    const lines = htmlLines(html);
    expect(lines).toHaveLength(4); // the last is the empty one after the final newline
    expect(lines[0]).toBe('<span class="hljs-comment">/* one</span>');
    expect(lines[1]).toBe('<span class="hljs-comment">   two */</span>');
    expect(lines[2]).toContain('<span class="hljs-string">&quot;x&quot;</span>');
    for (const line of lines) expect(line.match(/<span/g)?.length ?? 0).toBe(line.match(/<\/span>/g)?.length ?? 0);
    // Nothing lost: the lines' text, joined, is the whole text.
    const text = (h: string) => h.replace(/<[^>]+>/g, '');
    expect(lines.map(text).join('\n')).toBe(text(html));
  });

  it('keeps nested spans open across a break', () => {
    expect(htmlLines('<span class="a">x<span class="b">y\nz</span>w</span>')).toEqual([
      '<span class="a">x<span class="b">y</span></span>',
      '<span class="a"><span class="b">z</span>w</span>',
    ]);
  });
});
