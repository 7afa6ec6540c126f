import { useState } from 'react';
import { THEME_KEY } from '../theme-script.js';
import { Icon } from './icon.js';

type Choice = 'system' | 'light' | 'dark';
const NEXT: Record<Choice, Choice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<Choice, string> = { system: 'System', light: 'Light', dark: 'Dark' };
const ICON: Record<Choice, string> = {
  system: 'M3 4h18v12H3zM8 20h8M12 16v4',
  light:
    'M12 2v2M12 20v2M2 12h2M20 12h2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z',
  dark: 'M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z',
};

/** The choice the page's first script read (THEME_SCRIPT). */
function currentChoice(): Choice {
  const choice = document.documentElement.getAttribute('data-theme-choice');
  return choice === 'light' || choice === 'dark' ? choice : 'system';
}

/** Stores the choice and applies it at once, as the page's first script does at the next load. */
function apply(choice: Choice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (a private window): the choice holds for this page only.
  }
  const root = document.documentElement;
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  // The whole page changes at once: colours do not fade one element after another.
  root.classList.add('theme-changing');
  root.setAttribute('data-theme-choice', choice);
  root.setAttribute('data-theme', dark ? 'dark' : 'light');
  void getComputedStyle(root).color;
  requestAnimationFrame(() => root.classList.remove('theme-changing'));
}

/** One button cycling the colour scheme: System, Light, Dark. Its name says what is chosen; its tip, what comes next. */
export function ThemeSwitch() {
  const [choice, setChoice] = useState<Choice>(currentChoice);
  const next = NEXT[choice];
  return (
    <button
      type="button"
      className="theme-switch link-button"
      data-testid="theme-switch"
      title={`Switch to ${LABEL[next]}`}
      onClick={() => {
        apply(next);
        setChoice(next);
      }}
    >
      <Icon d={ICON[choice]} />
      <span>Theme: {LABEL[choice]}</span>
    </button>
  );
}
