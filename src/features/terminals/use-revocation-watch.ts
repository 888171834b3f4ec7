import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { isApiError } from '@/api/errors';
import { configKeys } from '@/api/keys';

/**
 * A 401 on any request (the terminal was revoked, or its credential is gone): read the config
 * again; when it says this browser is no longer a terminal, the app shows the enrollment screen.
 */
export function useRevocationWatch(): void {
  const client = useQueryClient();
  useEffect(() => {
    const check = (error: unknown) => {
      if (isApiError(error) && error.status === 401) {
        void client.invalidateQueries({ queryKey: configKeys.all });
      }
    };
    const queries = client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') check(event.action.error);
    });
    const mutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') check(event.action.error);
    });
    return () => {
      queries();
      mutations();
    };
  }, [client]);
}
