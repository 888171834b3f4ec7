// What a person sees as "scrolls sideways": any element of the page whose content is wider
// than its box (scrollWidth against clientWidth), the page itself included.
import type { Page } from '@playwright/test';

export interface Overflow {
  /** e.g. `div[role=region] "Vendas do PDV por terminal"`. */
  element: string;
  content: number;
  box: number;
}

/**
 * Every laid-out element of the page wider than its box, by more than a pixel of rounding.
 * Text hidden for screen readers only (`.sr-only`, clipped to 1 px by design) is not shown to
 * anyone, so it is not counted.
 */
export function overflowing(page: Page): Promise<Overflow[]> {
  return page.evaluate(() => {
    const name = (el: Element) => {
      const role = el.getAttribute('role');
      const label =
        el.getAttribute('aria-label') ??
        (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `${el.tagName.toLowerCase()}${role ? `[role=${role}]` : ''} "${label}"`;
    };
    const found: { element: string; content: number; box: number }[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      found.push({ element: 'the page', content: root.scrollWidth, box: root.clientWidth });
    }
    for (const el of document.body.querySelectorAll('*')) {
      if (!(el instanceof HTMLElement) || el.clientWidth === 0) continue;
      if (el.closest('.sr-only')) continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        found.push({ element: name(el), content: el.scrollWidth, box: el.clientWidth });
      }
    }
    return found;
  });
}

/** The table boxes (`role=region` around a table) and how wide their content is. */
export function tableBoxes(page: Page): Promise<Overflow[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role=region]')]
      .filter((el): el is HTMLElement => el instanceof HTMLElement && !!el.querySelector('table'))
      .map((el) => ({
        element: el.getAttribute('aria-label') ?? el.id,
        content: el.scrollWidth,
        box: el.clientWidth,
      })),
  );
}
