import { Button } from '@/components/ui/button';
import type { Typed } from '@/features/customers/use-counter-customer';

type Props = {
  typed: Typed;
  /** Registration is open already (the button is not offered again). */
  registering: boolean;
  onRegister: () => void;
};

/** A search that found no one: registration starts from a typed phone or CPF. */
export function NotFoundPanel({ typed, registering, onRegister }: Props) {
  const registrable = !!(typed.celular || typed.cpf);
  return (
    <section
      aria-labelledby="not-found-title"
      className="flex flex-col gap-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="not-found-title" className="text-lg font-bold">
        Cliente não encontrado
      </h2>
      <p>
        Nenhum cliente com {typed.display} neste estabelecimento.{' '}
        {registrable
          ? 'Cadastre agora ou lance os pontos ao lado: o cliente é cadastrado junto.'
          : 'Confira o código ou busque pelo celular ou CPF.'}
      </p>
      {registrable && !registering && (
        <div>
          <Button onClick={onRegister} shortcut="F3">
            Cadastrar cliente
          </Button>
        </div>
      )}
    </section>
  );
}
