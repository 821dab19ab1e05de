import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { canSubmitManualCode } from '../scanner-logic.ts';

/**
 * Manual ticket entry (SPEC §2, §5): 'Or enter ticket ID manually:' with a 'Verify' button, disabled
 * while the trimmed text is empty or a check is processing; Enter submits; the field is cleared
 * after a submit.
 *
 * @param onSubmit returns true when the code was accepted for verification.
 */
export function ManualEntryForm({ isProcessing, onSubmit }: { isProcessing: boolean; onSubmit: (text: string) => boolean }) {
  const [text, setText] = useState('');
  const inputId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmitManualCode(text, isProcessing) && onSubmit(text)) setText('');
  };

  return (
    <form onSubmit={submit} className="space-y-2">
      <Label htmlFor={inputId}>Or enter ticket ID manually:</Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          enterKeyHint="go"
          className="min-h-14 text-lg"
        />
        <Button type="submit" size="large" disabled={!canSubmitManualCode(text, isProcessing)}>
          Verify
        </Button>
      </div>
    </form>
  );
}
