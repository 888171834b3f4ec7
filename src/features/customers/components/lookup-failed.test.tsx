import { describe, expect, test, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, toApiError } from '@/api/errors';
import { LookupFailed } from './lookup-failed';

const contingency = toApiError(
  503,
  JSON.stringify({ success: false, message: 'Serviço indisponível — modo contingência', data: {} }),
);

describe('LookupFailed', () => {
  test('the service down, searched by phone: says the sale can be kept, no balance', async () => {
    const onRetry = vi.fn();
    render(
      <LookupFailed
        error={contingency}
        typed={{ celular: '+5511987654321', display: 'celular (11) 98765-4321' }}
        onRetry={onRetry}
      />,
    );
    const panel = screen.getByRole('alert');
    expect(panel.textContent).toContain('Não foi possível consultar o cliente agora');
    expect(panel.textContent).toContain('o saldo de celular (11) 98765-4321 não podem ser lidos');
    expect(panel.textContent).toContain('será lançada quando o serviço voltar');
    await userEvent.click(screen.getByRole('button', { name: 'Tentar de novo' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  test('the service down, searched by CPF or code: asks for the phone instead', () => {
    render(
      <LookupFailed
        error={new ApiError({ kind: 'network' })}
        typed={{ cpf: '52998224725', display: 'CPF 529.982.247-25' }}
        onRetry={() => {}}
      />,
    );
    const panel = screen.getByRole('alert');
    expect(panel.textContent).toContain('busque pelo celular do cliente');
    expect(panel.textContent).not.toContain('será lançada quando o serviço voltar');
  });

  test('any other failure shows the service’s message and a retry', () => {
    render(
      <LookupFailed
        error={toApiError(403, '')}
        typed={{ celular: '+5511987654321', display: 'celular (11) 98765-4321' }}
        onRetry={() => {}}
      />,
    );
    const panel = screen.getByRole('alert');
    expect(panel.textContent).toContain('Não foi possível buscar o cliente.');
    expect(panel.textContent).toContain('Este caixa não tem permissão');
    expect(panel.textContent).not.toContain('guardada');
  });
});
