import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { canSubmitManualCode } from '../scanner-logic.ts';
import { useTranslation } from 'react-i18next';

/**
 * Manual ticket entry (SPEC §2, §5): 'Or enter ticket ID manually:' with a 'Verify' button, disabled
 * while the trimmed text is empty or a check is processing; Enter submits; the field is cleared
 * after a submit.
 *
 * At a door the same hand types code after code: the field keeps the focus through Verify (a tap on
 * Verify does not take it, and a submit gives it back), so the keyboard stays open. The field is wide
 * enough for a whole 19-character ticket code; on phones where Verify does not fit beside it, Verify
 * takes the row below (issue 15 item 14).
 *
 * @param onSubmit returns true when the code was accepted for verification.
 */
export function ManualEntryForm({ isProcessing, onSubmit }: { isProcessing: boolean; onSubmit: (text: string) => boolean }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmitManualCode(text, isProcessing) && onSubmit(text)) {
      setText('');
      inputRef.current?.focus({ preventScroll: true });
    }
  };

  return (
    <form onSubmit={submit} className="space-y-2">
      <Label htmlFor={inputId}>{t('scanner.manualLabel')}</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          ref={inputRef}
          id={inputId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          enterKeyHint="go"
          className="min-h-14 min-w-[calc(20ch+1.75rem)] flex-1 px-3 font-mono text-lg"
        />
        <Button
          type="submit"
          size="large"
          className="grow min-[400px]:grow-0"
          disabled={!canSubmitManualCode(text, isProcessing)}
          // A tap would move the focus to the button and close the phone's keyboard.
          onMouseDown={(event) => event.preventDefault()}
        >
          {t('scanner.verify')}
        </Button>
      </div>
    </form>
  );
}
