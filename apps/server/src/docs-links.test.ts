import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'].map((name) => join(root, name));
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files.filter((file) => existsSync(file));
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces made hyphens, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = !inFence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** Link targets in a file, outside code: [text](target), ![alt](target) and src="…"/href="…". */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^\s*(```|~~~)[\s\S]*?^\s*\1/gm, '').replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
    targets.push(match[1]!);
  for (const match of prose.matchAll(/\b(?:src|href)="([^"]+)"/g)) targets.push(match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('links in the README, CONTRIBUTING.md and docs/', () => {
  const files = markdownFiles();

  it('finds the documents', () => {
    expect(files.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/operations.md']),
    );
  });

  it.each(files.map((file) => [relative(root, file), file]))(
    '%s: every relative link and anchor resolves',
    (_name, file) => {
      const broken: string[] = [];
      for (const target of linkTargets(readFileSync(file, 'utf8'))) {
        const [pathPart, anchor] = target.split('#', 2);
        const path = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
        if (!existsSync(path)) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (anchor === undefined || !path.endsWith('.md')) continue;
        if (!headingSlugs(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) {
          broken.push(`${target}: no heading with that anchor`);
        }
      }
      expect(broken).toEqual([]);
    },
  );
});
