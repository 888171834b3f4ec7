// The customer-facing kiosk: check points by phone, claim a sale the counter sent, register
// with consent. Full screen, touch only, no link anywhere; leaving asks the attendant password.
import type { ReactNode } from 'react';
import { formatBRL } from '@/lib/money';
import { keyClass } from './keypad';
import {
  enterFullscreen,
  leaveFullscreen,
  useIdle,
  useOfflineShell,
  useOnline,
} from './kiosk-hooks';
import { Balance, Centered, ClaimResult, Consent, PhoneEntry, Welcome } from './screens';
import { Staff } from './staff';
import { useKiosk } from './use-kiosk';

export function KioskScreen({ onExit }: { onExit: () => void }) {
  const kiosk = useKiosk();
  const { screen, setScreen, waiting, reset } = kiosk;
  const online = useOnline();
  useOfflineShell();
  const idle = useIdle(screen.name !== 'welcome' && screen.name !== 'exited', reset);

  let content: ReactNode;
  switch (screen.name) {
    case 'welcome':
      content = (
        <Welcome
          notice={kiosk.notice}
          onStart={() => {
            enterFullscreen();
            kiosk.setNotice(null);
            setScreen({ name: 'phone' });
          }}
        />
      );
      break;
    case 'phone':
      content = (
        <PhoneEntry
          title={
            waiting
              ? `Digite seu celular para ganhar seus pontos de ${formatBRL(waiting.valor_gasto)}`
              : 'Digite seu celular para ver seus pontos'
          }
          digits={kiosk.digits}
          setDigits={kiosk.typeDigits}
          error={kiosk.error}
          busy={kiosk.busy}
          onSubmit={() => void kiosk.submitPhone()}
          onBack={waiting ? undefined : reset}
        />
      );
      break;
    case 'consent':
      content = (
        <Consent
          forSale={waiting}
          busy={kiosk.busy}
          error={kiosk.error}
          onAccept={(nome) => void kiosk.register(screen.celular, nome)}
          onDecline={reset}
        />
      );
      break;
    case 'balance':
      content = <Balance customer={screen.customer} onDone={reset} />;
      break;
    case 'claiming':
      content = (
        <Centered>
          <h1 className="text-4xl font-bold">Lançando seus pontos…</h1>
          <p role="status" className="text-2xl">
            Um instante.
          </p>
        </Centered>
      );
      break;
    case 'result':
      content = <ClaimResult sale={screen.sale} onDone={reset} />;
      break;
    case 'staff':
      content = (
        <Staff
          onBack={reset}
          onStaged={(venda) => {
            reset();
            kiosk.setSale(venda);
            setScreen({ name: 'phone' });
          }}
          onExited={() => {
            reset();
            leaveFullscreen();
            setScreen({ name: 'exited' });
            onExit();
          }}
        />
      );
      break;
    case 'exited':
      content = (
        <Centered>
          <h1 className="text-4xl font-bold">Modo quiosque encerrado</h1>
          <button
            type="button"
            onClick={() => setScreen({ name: 'welcome' })}
            className={`${keyClass} bg-amber-400 px-8 text-2xl text-slate-950`}
          >
            Voltar ao modo quiosque
          </button>
        </Centered>
      );
      break;
  }

  return (
    <div className="relative flex min-h-dvh flex-col bg-slate-900 text-white">
      {!online ? (
        <Centered>
          <h1 className="text-5xl font-bold">Sem conexão</h1>
          <p role="status" className="max-w-xl text-center text-2xl">
            O quiosque está sem rede. Assim que a conexão voltar, ele volta sozinho.
          </p>
        </Centered>
      ) : (
        <main className="flex flex-1 flex-col">{content}</main>
      )}
      {screen.name !== 'staff' && screen.name !== 'exited' && (
        <button
          type="button"
          onClick={() => setScreen({ name: 'staff' })}
          className="absolute right-2 bottom-2 min-h-12 min-w-12 touch-manipulation rounded-lg px-3 text-sm text-slate-300 active:bg-slate-700"
        >
          Atendente
        </button>
      )}
      {idle !== null && <IdleDialog left={idle} />}
    </div>
  );
}

/**
 * "Ainda está aí?": any touch dismisses it (and restarts the wait), as does any key (Enter on
 * "Continuar", which has the focus, or Esc); 0 goes back to the start.
 */
function IdleDialog({ left }: { left: number }) {
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="idle-title"
      className="fixed inset-0 z-10 flex items-center justify-center bg-slate-950/85 p-6"
    >
      <div className="flex max-w-lg flex-col items-center gap-6 rounded-2xl bg-white p-8 text-center text-slate-950">
        <h2 id="idle-title" className="text-3xl font-bold">
          Ainda está aí?
        </h2>
        <p className="text-2xl" aria-live="polite">
          Voltando ao início em <strong data-testid="countdown">{left}</strong> s
        </p>
        <button type="button" autoFocus className={`${keyClass} bg-amber-400 px-8 text-2xl`}>
          Continuar
        </button>
      </div>
    </div>
  );
}
