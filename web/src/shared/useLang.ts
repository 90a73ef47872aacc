// React's view of the page language (i18n/current.ts): the language and its messages.

import { useSyncExternalStore } from 'react';

import { classroomText, type ClassroomMessages } from '../i18n/classroom';
import { currentLang, subscribeLang } from '../i18n/current';
import type { Lang } from '../i18n/lang';

export function useLang(): Lang {
  return useSyncExternalStore(subscribeLang, currentLang, currentLang);
}

/** The classroom strings in the page's language. */
export function useText(): ClassroomMessages {
  return classroomText(useLang());
}
