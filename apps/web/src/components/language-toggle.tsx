import { useTranslation } from 'react-i18next';
import { activeLanguage, type Language } from '@/lib/i18n/index.ts';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import { dismissToastsOfThisScreen } from '@/lib/toast.ts';
import { SegmentedChoice, type SegmentedOption } from './ui/segmented-choice.tsx';

/** Each language named in its own words, so a visitor finds theirs whatever is shown now. */
const options: ReadonlyArray<SegmentedOption<Language>> = [
  { value: 'en', label: 'English', lang: 'en' },
  { value: 'de', label: 'Deutsch', lang: 'de' },
];

/**
 * 'Language': English / Deutsch (issue 10 item 9), remembered on this device (lib/i18n); shown next
 * to the theme toggle. A change dismisses the toasts on screen: their words are the old language's.
 */
export function LanguageToggle({ className }: { className?: string }) {
  const { t } = useTranslation();
  const choose = (value: Language) => {
    dismissToastsOfThisScreen();
    void chooseLanguage(value);
  };
  return <SegmentedChoice legend={t('language.legend')} options={options} value={activeLanguage()} onChange={choose} className={className} />;
}
