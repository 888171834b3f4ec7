/** What the journal tells the cashier and the manager of a posting (`motivo`), in Portuguese. */
export const postingMessages = {
  noKey:
    'Este lançamento não tem identificador (Idempotency-Key). Recarregue a página e lance de novo.',
  badKey: 'O identificador do lançamento (Idempotency-Key) deve ser um UUID.',
  keyReused:
    'Este identificador já foi usado para outra venda. Recarregue a página e lance de novo.',
  noCustomer: 'Informe o celular do cliente.',
  busy: 'Outro lançamento deste cliente ainda está em andamento. Nada foi lançado: aguarde e lance de novo.',
  readFailed:
    'O serviço de fidelidade não respondeu antes do envio. Nada foi lançado: lance de novo.',
  notSentRestart:
    'O servidor reiniciou antes de enviar esta venda. Nada foi lançado: lance de novo.',
  verifiedPosted:
    'A resposta do serviço se perdeu, mas o cadastro do cliente mostra a compra: lançado.',
  verifiedNotPosted:
    'A resposta do serviço se perdeu e o cadastro do cliente não mostra a compra: não lançado. Pode lançar de novo.',
  verifying: 'A resposta do serviço se perdeu. Conferindo no cadastro do cliente…',
  unknown:
    'Ainda não se sabe se a compra foi registrada. Não lance de novo: o servidor confere sozinho em instantes.',
  unknownReadFailed:
    'Não foi possível conferir o cadastro do cliente. Não lance de novo: o servidor confere de novo em instantes.',
  ambiguous:
    'O cadastro do cliente mudou por outra compra ao mesmo tempo; não dá para saber se esta foi registrada. Confira o histórico do cliente antes de lançar de novo.',
  kept: 'Guardado: será lançado quando o serviço voltar.',
  keptRequeued: 'A entrega foi interrompida antes de chegar ao serviço: será enviada de novo.',
  keptVerifiedNotPosted:
    'A resposta do serviço se perdeu e o cadastro do cliente não mostra a compra: será enviada de novo.',
  keptAmbiguous:
    'O cadastro do cliente mudou por outra compra durante a entrega; não dá para saber se esta foi registrada. Um gerente confere o histórico do cliente e reenvia ou descarta.',
  restoredCredited:
    'Restaurada de um backup: pode já ter sido entregue depois dele (o histórico do cliente não confirma que não foi). Um gerente confere o histórico e reenvia ou descarta.',
  keptNoPassword:
    'A senha do atendente desta venda não pôde ser lida. Um gerente informa a senha e reenvia.',
  discarded: 'Descartada por um gerente: nada foi lançado.',
  gaveUp: (attempts: number, last: string | null) =>
    `Não foi entregue depois de ${attempts} tentativas${last ? ` (a última: ${last})` : ''}. Um gerente confere e reenvia ou descarta.`,
  keptRefused: (message: string | null) =>
    `O serviço recusou esta venda guardada${message ? `: ${message}` : '.'} Um gerente corrige e reenvia, ou descarta.`,
  verifyGaveUp:
    'Não foi possível conferir no cadastro do cliente se a compra foi registrada. Confira o histórico do cliente antes de lançar de novo.',
  fullCount: (n: number) =>
    `Serviço indisponível e o limite de ${n} vendas guardadas foi atingido: esta venda não foi guardada nem lançada. Lance de novo quando o serviço voltar.`,
  fullAge: (hours: number) =>
    `Serviço indisponível há mais de ${hours} h (o limite das vendas guardadas): esta venda não foi guardada nem lançada. Lance de novo quando o serviço voltar.`,
};

/** What the journal tells the cashier of a reward handed over (`motivo`), in Portuguese. */
export const handoverMessages = {
  handed: 'Prêmio entregue.',
  alreadyHanded: 'Este prêmio já foi entregue.',
  customerNotFound: 'Cliente não encontrado',
  unavailable:
    'O serviço de fidelidade está indisponível: o prêmio não foi entregue. Tente de novo quando o serviço voltar (a entrega não fica guardada).',
  unsupported:
    'Este serviço de fidelidade não permite entregar prêmios no caixa. Entregue pelo painel do próprio serviço.',
  notSentRestart:
    'O servidor reiniciou antes de enviar esta entrega. Nada foi entregue: entregue de novo.',
  readFailed:
    'O serviço de fidelidade não respondeu antes da entrega. Nada foi entregue: tente de novo.',
  verifiedHanded:
    'A resposta do serviço se perdeu, mas os prêmios do cliente mostram a entrega: entregue.',
  verifiedNotHanded:
    'A resposta do serviço se perdeu e os prêmios do cliente não mostram a entrega: não entregue. Pode entregar de novo.',
  verifying: 'A resposta do serviço se perdeu. Conferindo os prêmios do cliente…',
  unknown:
    'Ainda não se sabe se o prêmio foi entregue. Não entregue de novo: o servidor confere sozinho em instantes.',
  ambiguous:
    'Os prêmios do cliente mudaram por outra entrega ao mesmo tempo; não dá para saber se esta foi registrada. Confira os prêmios do cliente antes de entregar de novo.',
} as const;
