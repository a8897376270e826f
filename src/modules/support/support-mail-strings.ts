import type { QuestionLanguage } from '../draft/question-types.ts';

/**
 * The words of support mail in the eight languages (docs/support.md "Mail"): English is the
 * reference, and the Record makes tsc hold every other language to its keys. `{name}`
 * placeholders are filled in by support-mail.ts. No mail invites an answer by email: replies
 * come from the no-reply MAIL_FROM, so a person who needs more writes a new ticket.
 */
const en = {
  receivedSubject: 'We got your message [{ticketId}]',
  receivedIntro: 'Thank you for writing to Headcount support. We have received your message.',
  ticketNumber: 'Ticket number: {ticketId}',
  subjectLine: 'Subject: {subject}',
  replyByEmail: 'We will reply to this email address. There is nothing else you need to do.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'Headcount support has answered your message.',
  replyMore: 'If you need more help, send us a new message and mention {ticketId}.',
  signature: 'Headcount support',
};
export type SupportMailStrings = typeof en;

const es: SupportMailStrings = {
  receivedSubject: 'Hemos recibido tu mensaje [{ticketId}]',
  receivedIntro: 'Gracias por escribir al soporte de Headcount. Hemos recibido tu mensaje.',
  ticketNumber: 'Número de ticket: {ticketId}',
  subjectLine: 'Asunto: {subject}',
  replyByEmail: 'Te responderemos a esta dirección de correo electrónico. No tienes que hacer nada más.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'El soporte de Headcount ha respondido a tu mensaje.',
  replyMore: 'Si necesitas más ayuda, envíanos un mensaje nuevo e indica {ticketId}.',
  signature: 'Soporte de Headcount',
};

const pt: SupportMailStrings = {
  receivedSubject: 'Recebemos a sua mensagem [{ticketId}]',
  receivedIntro: 'Obrigado por escrever ao suporte da Headcount. Recebemos a sua mensagem.',
  ticketNumber: 'Número do pedido: {ticketId}',
  subjectLine: 'Assunto: {subject}',
  replyByEmail: 'Vamos responder para este endereço de e-mail. Não é preciso fazer mais nada.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'O suporte da Headcount respondeu à sua mensagem.',
  replyMore: 'Se precisar de mais ajuda, envie-nos uma nova mensagem e indique {ticketId}.',
  signature: 'Suporte da Headcount',
};

const hi: SupportMailStrings = {
  receivedSubject: 'हमें आपका संदेश मिल गया है [{ticketId}]',
  receivedIntro: 'Headcount सहायता को लिखने के लिए धन्यवाद। हमें आपका संदेश मिल गया है।',
  ticketNumber: 'टिकट नंबर: {ticketId}',
  subjectLine: 'विषय: {subject}',
  replyByEmail: 'हम इसी ईमेल पते पर जवाब देंगे। आपको और कुछ करने की ज़रूरत नहीं है।',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'Headcount सहायता ने आपके संदेश का जवाब दिया है।',
  replyMore: 'अगर आपको और मदद चाहिए, तो हमें नया संदेश भेजें और {ticketId} लिखें।',
  signature: 'Headcount सहायता',
};

const fr: SupportMailStrings = {
  receivedSubject: 'Nous avons bien reçu votre message [{ticketId}]',
  receivedIntro: 'Merci d’avoir écrit au support de Headcount. Nous avons bien reçu votre message.',
  ticketNumber: 'Numéro de ticket : {ticketId}',
  subjectLine: 'Objet : {subject}',
  replyByEmail: 'Nous vous répondrons à cette adresse e-mail. Vous n’avez rien d’autre à faire.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'Le support de Headcount a répondu à votre message.',
  replyMore: 'Si vous avez besoin d’aide supplémentaire, envoyez-nous un nouveau message en indiquant {ticketId}.',
  signature: 'Le support de Headcount',
};

const de: SupportMailStrings = {
  receivedSubject: 'Wir haben deine Nachricht erhalten [{ticketId}]',
  receivedIntro: 'Danke, dass du dem Headcount-Support geschrieben hast. Wir haben deine Nachricht erhalten.',
  ticketNumber: 'Ticketnummer: {ticketId}',
  subjectLine: 'Betreff: {subject}',
  replyByEmail: 'Wir antworten an diese E-Mail-Adresse. Du musst nichts weiter tun.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'Der Headcount-Support hat auf deine Nachricht geantwortet.',
  replyMore: 'Wenn du weitere Hilfe brauchst, schick uns eine neue Nachricht und nenne {ticketId}.',
  signature: 'Dein Headcount-Support',
};

const id: SupportMailStrings = {
  receivedSubject: 'Pesanmu sudah kami terima [{ticketId}]',
  receivedIntro: 'Terima kasih telah menghubungi dukungan Headcount. Pesanmu sudah kami terima.',
  ticketNumber: 'Nomor tiket: {ticketId}',
  subjectLine: 'Subjek: {subject}',
  replyByEmail: 'Kami akan membalas ke alamat email ini. Kamu tidak perlu melakukan apa pun lagi.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'Tim dukungan Headcount telah membalas pesanmu.',
  replyMore: 'Jika kamu memerlukan bantuan lebih lanjut, kirimkan pesan baru kepada kami dan sebutkan {ticketId}.',
  signature: 'Dukungan Headcount',
};

const tl: SupportMailStrings = {
  receivedSubject: 'Natanggap namin ang iyong mensahe [{ticketId}]',
  receivedIntro: 'Salamat sa pagsulat sa suporta ng Headcount. Natanggap namin ang iyong mensahe.',
  ticketNumber: 'Numero ng ticket: {ticketId}',
  subjectLine: 'Paksa: {subject}',
  replyByEmail: 'Sasagutin ka namin sa email address na ito. Wala ka nang ibang kailangang gawin.',
  replySubject: 'Re: {subject} [{ticketId}]',
  replyIntro: 'Sumagot na ang suporta ng Headcount sa iyong mensahe.',
  replyMore: 'Kung kailangan mo pa ng tulong, magpadala sa amin ng bagong mensahe at banggitin ang {ticketId}.',
  signature: 'Suporta ng Headcount',
};

export const SUPPORT_MAIL_STRINGS: Record<QuestionLanguage, SupportMailStrings> = { en, es, pt, hi, fr, de, id, tl };
