import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type Page, type Query } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs a request when its inputs change; the latest answer wins. */
export function useLoad<T>(load: (() => Promise<T>) | null, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: load !== null });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  useEffect(() => {
    const mine = ++seq.current;
    if (load === null) {
      setState({ loading: false });
      return;
    }
    setState((s) => ({ data: s.data, loading: true }));
    load().then(
      (data) => mine === seq.current && setState({ data, loading: false }),
      (error) => mine === seq.current && setState({ error, loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export interface Paged<T> extends Loaded<Page<T>> {
  pageNumber: number;
  next(): void;
  previous(): void;
}

/**
 * A cursor-paginated list (newest first): next follows nextCursor, previous walks back the cursors
 * seen. A null path loads nothing.
 */
export function usePaged<T>(path: string | null, query: Query, limit = 20): Paged<T> {
  const key = JSON.stringify([path, query, limit]);
  const [cursors, setCursors] = useState<string[]>([]);
  useEffect(() => setCursors([]), [key]);
  const cursor = cursors[cursors.length - 1];
  const loaded = useLoad(path === null ? null : () => api.get<Page<T>>(path, { ...query, limit, cursor }), [key, cursor]);
  return {
    ...loaded,
    pageNumber: cursors.length + 1,
    next: () => loaded.data?.nextCursor && setCursors((c) => [...c, loaded.data!.nextCursor!]),
    previous: () => setCursors((c) => c.slice(0, -1)),
  };
}
