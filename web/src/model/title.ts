// A scenario's title as the run's overrides leave it. A file's title describes the file as
// written ("one bulk flow on a 1 Gbit/s link"); after `link.rate_mbit=10000` the page must not
// keep saying 1 Gbit/s. The rate a title names follows `link.rate_mbit`; the page lists every
// override under the title (a sentence cannot be rewritten in general).

import { setValue } from './urlstate';

/** A rate the way titles write it: `10 Gbit/s`, `2.5 Gbit/s`, `100 Mbit/s`. */
export function rateText(mbit: number): string {
  return mbit >= 1000 ? `${mbit / 1000} Gbit/s` : `${mbit} Mbit/s`;
}

const RATE = /\b\d+(?:\.\d+)?\s*[GM]bit\/s/;

/** `title` with the link rate it names replaced by the one `sets` give, if they give one. */
export function titleWithSets(title: string, sets: readonly string[]): string {
  const v = setValue(sets, 'link.rate_mbit');
  const mbit = v === undefined ? NaN : Number(v);
  if (!Number.isFinite(mbit) || mbit <= 0) return title;
  return title.replace(RATE, rateText(mbit));
}
