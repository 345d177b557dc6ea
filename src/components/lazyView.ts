/**
 * A view loaded the first time it is shown: a resource's index names its views with this, so the
 * first page (sign-in, menu, layout) downloads none of them, and opening a resource downloads only
 * that view and what it alone uses. React-admin's layout shows its Loading spinner meanwhile (its
 * <Suspense> around the page), and a chunk that fails to load ends in its error page.
 *
 * Views are named exports (`export const UserList`), so this picks one out of the module.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bound React's lazy() itself puts on a component
type AnyComponent = ComponentType<any>;

const loaders = new Set<() => Promise<unknown>>();

/** A lazy view that can also be fetched before it renders (`preload()`: the module, not a render). */
export type LazyView<C extends AnyComponent> = LazyExoticComponent<C> & { preload: () => Promise<unknown> };

export function lazyView<M extends Record<K, AnyComponent>, K extends keyof M & string>(load: () => Promise<M>, name: K): LazyView<M[K]> {
  loaders.add(load);
  // A module promise is cached by the browser's module map: preload() and the render share one fetch.
  return Object.assign(lazy(async () => ({ default: (await load())[name] })), { preload: load });
}

/**
 * Loads every view named so far, without rendering any. The page tests call it before they start:
 * under Vitest a module is compiled when first imported, and a view's first import would otherwise
 * spend a test's time budget on compiling it. Each view still suspends once when first rendered.
 */
export async function preloadLazyViews(): Promise<void> {
  await Promise.all([...loaders].map((load) => load()));
}
