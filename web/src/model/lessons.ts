// The lessons of scenarios/lessons/, bundled into the site as text and parsed by lesson.ts.
// A lesson that does not parse is listed with its error (the page shows it) instead of
// taking the others down; the unit test of this module fails on any such lesson.

import { LANGS, type Lang } from '../i18n/lang';
import {
  LessonError,
  parseLesson,
  scenarioMeta,
  type Lesson,
  type LessonFiles,
  type ScenarioMeta,
} from './lesson';

const scenarioTexts = import.meta.glob<string>('../../../scenarios/*.toml', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const lessonTexts = import.meta.glob<string>(
  ['../../../scenarios/lessons/*/lesson.toml', '../../../scenarios/lessons/*/*.md'],
  { query: '?raw', import: 'default', eager: true },
);

/** Path relative to the repository: `../../../scenarios/x` -> `scenarios/x`. */
const repoPath = (p: string) => p.replace(/^(\.\.\/)+/, '');

/** Every scenario file's variants and `[source]`, by name (file name without `.toml`). */
export function scenarioMetas(texts: Record<string, string> = scenarioTexts) {
  const out = new Map<string, ScenarioMeta>();
  for (const [path, text] of Object.entries(texts)) {
    const file = repoPath(path);
    out.set(file.slice(file.lastIndexOf('/') + 1).replace(/\.toml$/, ''), scenarioMeta(text, file));
  }
  return out;
}

/** Groups bundled files into lesson folders. */
export function lessonFolders(texts: Record<string, string> = lessonTexts): LessonFiles[] {
  const byId = new Map<string, LessonFiles>();
  for (const [path, text] of Object.entries(texts)) {
    const file = repoPath(path);
    const m = /^(.*\/lessons\/([^/]+))\/([^/]+)$/.exec(file);
    if (!m) continue;
    const [, dir, id, name] = m as unknown as [string, string, string, string];
    const f = byId.get(id) ?? { id, dir, toml: '', markdown: {} };
    byId.set(id, f);
    if (name === 'lesson.toml') f.toml = text;
    else {
      const lang = name.replace(/\.md$/, '');
      if ((LANGS as readonly string[]).includes(lang)) f.markdown[lang as Lang] = text;
    }
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export interface LessonLoad {
  /** The lessons that parsed, by `order` then id. */
  lessons: Lesson[];
  /** Lessons that did not, with why. */
  errors: { id: string; message: string }[];
}

export function loadLessons(
  folders: LessonFiles[] = lessonFolders(),
  scenarios: ReadonlyMap<string, ScenarioMeta> = scenarioMetas(),
): LessonLoad {
  const lessons: Lesson[] = [];
  const errors: LessonLoad['errors'] = [];
  for (const f of folders) {
    if (!f.toml) {
      errors.push({ id: f.id, message: `${f.dir}/lesson.toml: missing` });
      continue;
    }
    try {
      lessons.push(parseLesson(f, scenarios));
    } catch (e) {
      if (!(e instanceof LessonError)) throw e;
      errors.push({ id: f.id, message: e.message });
    }
  }
  lessons.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  return { lessons, errors };
}

let loaded: LessonLoad | null = null;

/** The bundled lessons, parsed once. */
export function bundledLessons(): LessonLoad {
  loaded ??= loadLessons();
  return loaded;
}

export function lessonById(id: string): Lesson | null {
  return bundledLessons().lessons.find((l) => l.id === id) ?? null;
}
