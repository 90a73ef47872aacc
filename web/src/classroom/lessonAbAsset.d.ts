/**
 * The metrics of the bundled lessons' A/B steps, run at build time by
 * scripts/vite-plugin-lesson-ab.ts (model/lessonAb.ts); null in the dev server and in unit tests.
 */
declare module 'virtual:sendpath-lesson-ab' {
  const values: import('../model/lessonAb').PrerenderedAb | null;
  export default values;
}
