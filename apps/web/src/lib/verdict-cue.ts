/**
 * How a verdict sounds and feels (docs/decisions/102): `approved`, `denied`, or `attention` — an
 * approval of a ticket whose type or own note asks staff to look up before waving the guest through.
 * The sound (lib/verdict-sound.ts) and the vibration (lib/native/haptics.ts) each have one per cue.
 */
export type VerdictCue = 'approved' | 'attention' | 'denied';
