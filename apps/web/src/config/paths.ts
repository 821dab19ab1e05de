/** Route paths of the app (SPEC §2). The only place route strings are spelled out. */
export const paths = {
  home: '/',
  login: '/login',
  organizationSelect: '/organization-select',
  eventSelect: '/event-select',
  daySelect: '/day-select',
  scanner: '/scanner',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
