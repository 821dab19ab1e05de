import { cloneElement, useRef, useState, type FocusEvent, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';
import { flushSync } from 'react-dom';

type RadixTooltipModule = typeof import('./radix-tooltip.tsx');

const loadRadixTooltip = () => import('./radix-tooltip.tsx');
/** Radix's tooltip once loaded: every tooltip mounted after that is Radix's from its first render. */
let loadedModule: RadixTooltipModule | null = null;
/**
 * How long after a touch or pen is lifted its click may still come, in ms: the swap waits for it
 * (a browser's tap delay is 300 ms at most; a click that never comes ends the wait).
 */
const TAP_CLICK_WAIT_MS = 1_000;

type ControlProps = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerMove?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
};

/** Whether `element` has focus a keyboard gave it (a tap or a click gives a button focus too, not visibly). */
function hasVisibleFocus(element: HTMLElement): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * A short hint shown on hover or keyboard focus after SPEC §9's 700 ms open delay, above `children`
 * (one control, e.g. the icon-only Back button). It repeats the control's accessible name for sighted
 * mouse users; touch users never see it and do not need it.
 *
 * Radix's tooltip (radix-tooltip.tsx, about 13 kB gzip with its positioning library) loads when a
 * mouse first comes over the control or a keyboard first focuses it, not with the screen
 * (docs/decisions/128): until then the control is rendered bare. Putting Radix's trigger around it
 * mounts the control anew, so that happens only while no press is under way on it (a pointer or
 * Enter/Space held down: then once it is released, after its click — a tap's click may come in a
 * later task than the finger's lifting, so a touch press lasts until its click), and synchronously, so no press
 * can start in between; a control that had keyboard focus gets it back. A tap or a touch never loads it.
 * Once loaded, every tooltip mounted later is Radix's from the start. The hint shows after the
 * pointer moves over the loaded control, or at once on keyboard focus, as Radix does.
 */
export function Tooltip({ label, children }: { label: string; children: ReactElement<ControlProps> }) {
  const [radix, setRadix] = useState<RadixTooltipModule | null>(loadedModule);
  const isPressed = useRef(false);
  const isRequested = useRef(false);
  const hadFocus = useRef(false);
  const control = useRef<HTMLElement | null>(null);

  if (radix) return <radix.RadixTooltip label={label} focusOnMount={hadFocus.current}>{children}</radix.RadixTooltip>;

  const wrapIfIdle = () => {
    if (!loadedModule || isPressed.current) return;
    const module = loadedModule;
    hadFocus.current = control.current !== null && control.current === document.activeElement && hasVisibleFocus(control.current);
    flushSync(() => setRadix(module));
  };
  const request = (element: HTMLElement) => {
    control.current = element;
    if (isRequested.current) return;
    isRequested.current = true;
    void loadRadixTooltip().then(
      (module) => {
        loadedModule = module;
        wrapIfIdle();
      },
      // Not loaded (offline before it was cached): the control works without its hint.
      () => undefined,
    );
  };
  /** The press is over: the swap, after the click under way (same task) has reached the bare control. */
  const pressEnded = () => {
    isPressed.current = false;
    setTimeout(wrapIfIdle, 0);
  };
  /**
   * A press on the control: no swap until it is released anywhere and its click has come. A mouse's
   * or a key's click comes in the task of its release; a touch's or a pen's comes from the tap
   * gesture, possibly in a later task (a hybrid touchscreen laptop whose mouse asked for the module):
   * that press lasts until the click, or `TAP_CLICK_WAIT_MS` when none comes (the finger slid away).
   */
  const pressStarted = (releaseEvents: readonly string[], isTap: boolean) => {
    isPressed.current = true;
    const released = (event: Event) => {
      for (const type of releaseEvents) window.removeEventListener(type, released, true);
      if (!isTap || event.type !== 'pointerup') {
        pressEnded();
        return;
      }
      const clicked = () => {
        window.removeEventListener('click', clicked, true);
        clearTimeout(timer);
        pressEnded();
      };
      const timer = setTimeout(clicked, TAP_CLICK_WAIT_MS);
      window.addEventListener('click', clicked, true);
    };
    for (const type of releaseEvents) window.addEventListener(type, released, true);
  };
  const props = children.props;
  return cloneElement(children, {
    onPointerEnter: (event) => {
      props.onPointerEnter?.(event);
      if (event.pointerType === 'mouse') request(event.currentTarget);
    },
    onPointerMove: (event) => {
      props.onPointerMove?.(event);
      if (event.pointerType === 'mouse') request(event.currentTarget);
    },
    onPointerDown: (event) => {
      props.onPointerDown?.(event);
      pressStarted(['pointerup', 'pointercancel'], event.pointerType !== 'mouse');
    },
    onFocus: (event) => {
      props.onFocus?.(event);
      if (hasVisibleFocus(event.currentTarget)) request(event.currentTarget);
    },
    onKeyDown: (event) => {
      props.onKeyDown?.(event);
      if (event.key === 'Enter' || event.key === ' ') pressStarted(['keyup', 'blur'], false);
    },
  });
}
