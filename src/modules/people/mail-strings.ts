import type { QuestionLanguage } from '../draft/question-types.ts';

/**
 * The words of the portal's mail in the eight languages the pages speak (docs/portal.md
 * "Languages"): English is the reference every other language matches key for key. `{name}`
 * placeholders are filled in by people-mail.ts and, for the `webhookOff…` mail to an account's
 * owners, by modules/events/webhook-mail.ts.
 */
const en = {
  signInSubject: 'Your Headcount sign-in code: {code}',
  signInCode: 'Your sign-in code is {code}',
  signInLinkIntro: 'Type it on the sign-in page, or open this link to sign in:',
  signInButton: 'Sign in to Headcount',
  signInExpiry: 'The code and the link work once, for {minutes} minutes.',
  signInIgnore: 'If you did not ask to sign in, ignore this email: nobody can sign in without the code.',
  inviteSubject: '{inviter} invited you to {team} on Headcount',
  inviteBody: '{inviter} invited you to join the team {team} on Headcount as {role}.',
  inviteHow: 'Sign in with this email address to accept or decline:',
  inviteButton: 'See the invitation',
  webhookOffSubject: 'Your Headcount webhook endpoint was turned off',
  webhookOffBody: 'We turned off your webhook endpoint {url}.',
  webhookOffReason: 'Reason: “{reason}”',
  webhookOffNoReason: 'It kept failing.',
  webhookOffNext: 'Events are no longer sent to it. Once the receiver works again, turn the endpoint back on in the portal and redeliver the events it missed from its delivery log.',
  webhookOffButton: 'Open the endpoint',
  roles: { owner: 'an owner', admin: 'an admin', member: 'a member' },
};
export type MailStrings = typeof en;

// The other seven speak to the reader as the answer page does (tú, você, आप, vous, du, kamu,
// ka/mo). `roles` is what fills {role} in inviteBody, so each reads inside that sentence.
const es: MailStrings = {
  signInSubject: 'Tu código para entrar en Headcount: {code}',
  signInCode: 'Tu código para entrar es {code}',
  signInLinkIntro: 'Escríbelo en la página para entrar o abre este enlace:',
  signInButton: 'Entrar en Headcount',
  signInExpiry: 'El código y el enlace sirven una vez, durante {minutes} minutos.',
  signInIgnore: 'Si no pediste entrar, ignora este correo: nadie puede entrar sin el código.',
  inviteSubject: '{inviter} te invitó a {team} en Headcount',
  inviteBody: '{inviter} te invitó a unirte al equipo {team} en Headcount como {role}.',
  inviteHow: 'Entra con esta dirección de correo para aceptar o rechazar la invitación:',
  inviteButton: 'Ver la invitación',
  webhookOffSubject: 'Se desactivó tu endpoint de webhook en Headcount',
  webhookOffBody: 'Desactivamos tu endpoint de webhook {url}.',
  webhookOffReason: 'Motivo: «{reason}»',
  webhookOffNoReason: 'Seguía fallando.',
  webhookOffNext: 'Ya no se le envían eventos. Cuando el receptor vuelva a funcionar, activa de nuevo el endpoint en el portal y reenvía desde su registro de entregas los eventos que se perdió.',
  webhookOffButton: 'Abrir el endpoint',
  roles: { owner: 'propietario', admin: 'administrador', member: 'miembro' },
};

const pt: MailStrings = {
  signInSubject: 'Seu código de acesso à Headcount: {code}',
  signInCode: 'Seu código de acesso é {code}',
  signInLinkIntro: 'Digite-o na página de acesso ou abra este link para entrar:',
  signInButton: 'Entrar na Headcount',
  signInExpiry: 'O código e o link funcionam uma vez, por {minutes} minutos.',
  signInIgnore: 'Se você não pediu para entrar, ignore este e-mail: ninguém consegue entrar sem o código.',
  inviteSubject: '{inviter} convidou você para {team} na Headcount',
  inviteBody: '{inviter} convidou você para entrar na equipe {team} na Headcount como {role}.',
  inviteHow: 'Entre com este endereço de e-mail para aceitar ou recusar:',
  inviteButton: 'Ver o convite',
  webhookOffSubject: 'Seu endpoint de webhook na Headcount foi desativado',
  webhookOffBody: 'Desativamos o seu endpoint de webhook {url}.',
  webhookOffReason: 'Motivo: “{reason}”',
  webhookOffNoReason: 'Ele continuava falhando.',
  webhookOffNext: 'Os eventos não são mais enviados para ele. Quando o receptor voltar a funcionar, reative o endpoint no portal e reenvie, a partir do registro de entregas, os eventos que ele perdeu.',
  webhookOffButton: 'Abrir o endpoint',
  roles: { owner: 'proprietário', admin: 'administrador', member: 'membro' },
};

const hi: MailStrings = {
  signInSubject: 'आपका Headcount साइन-इन कोड: {code}',
  signInCode: 'आपका साइन-इन कोड {code} है',
  signInLinkIntro: 'इसे साइन-इन पेज पर लिखें, या साइन इन करने के लिए यह लिंक खोलें:',
  signInButton: 'Headcount में साइन इन करें',
  signInExpiry: 'कोड और लिंक सिर्फ़ एक बार, {minutes} मिनट के लिए काम करते हैं।',
  signInIgnore: 'अगर आपने साइन इन करने के लिए नहीं कहा था, तो इस ईमेल को अनदेखा करें: कोड के बिना कोई साइन इन नहीं कर सकता।',
  inviteSubject: '{inviter} ने आपको Headcount पर {team} में न्योता दिया है',
  inviteBody: '{inviter} ने आपको Headcount पर टीम {team} में {role} के रूप में शामिल होने का न्योता दिया है।',
  inviteHow: 'स्वीकार करने या मना करने के लिए इसी ईमेल पते से साइन इन करें:',
  inviteButton: 'न्योता देखें',
  webhookOffSubject: 'आपका Headcount वेबहुक एंडपॉइंट बंद कर दिया गया',
  webhookOffBody: 'हमने आपका वेबहुक एंडपॉइंट {url} बंद कर दिया है।',
  webhookOffReason: 'कारण: “{reason}”',
  webhookOffNoReason: 'यह बार-बार विफल होता रहा।',
  webhookOffNext: 'अब इस पर इवेंट नहीं भेजे जाते। जब रिसीवर फिर से काम करने लगे, तो पोर्टल में एंडपॉइंट को फिर से चालू करें और उसके डिलीवरी लॉग से छूटे हुए इवेंट दोबारा भेजें।',
  webhookOffButton: 'एंडपॉइंट खोलें',
  roles: { owner: 'मालिक', admin: 'एडमिन', member: 'सदस्य' },
};

const fr: MailStrings = {
  signInSubject: 'Votre code de connexion Headcount : {code}',
  signInCode: 'Votre code de connexion est {code}',
  signInLinkIntro: 'Saisissez-le sur la page de connexion, ou ouvrez ce lien pour vous connecter :',
  signInButton: 'Se connecter à Headcount',
  signInExpiry: 'Le code et le lien ne servent qu’une fois, pendant {minutes} minutes.',
  signInIgnore: 'Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail : personne ne peut se connecter sans le code.',
  inviteSubject: '{inviter} vous invite à rejoindre {team} sur Headcount',
  inviteBody: '{inviter} vous invite à rejoindre l’équipe {team} sur Headcount en tant que {role}.',
  inviteHow: 'Connectez-vous avec cette adresse e-mail pour accepter ou refuser :',
  inviteButton: 'Voir l’invitation',
  webhookOffSubject: 'Votre endpoint de webhook Headcount a été désactivé',
  webhookOffBody: 'Nous avons désactivé votre endpoint de webhook {url}.',
  webhookOffReason: 'Motif : « {reason} »',
  webhookOffNoReason: 'Il échouait sans cesse.',
  webhookOffNext: 'Les événements ne lui sont plus envoyés. Dès que le récepteur fonctionne de nouveau, réactivez l’endpoint dans le portail et renvoyez depuis son journal de livraisons les événements qu’il a manqués.',
  webhookOffButton: 'Ouvrir l’endpoint',
  roles: { owner: 'propriétaire', admin: 'admin', member: 'membre' },
};

const de: MailStrings = {
  signInSubject: 'Dein Anmeldecode für Headcount: {code}',
  signInCode: 'Dein Anmeldecode lautet {code}',
  signInLinkIntro: 'Gib ihn auf der Anmeldeseite ein oder öffne diesen Link, um dich anzumelden:',
  signInButton: 'Bei Headcount anmelden',
  signInExpiry: 'Code und Link funktionieren einmal, für {minutes} Minuten.',
  signInIgnore: 'Wenn du dich nicht anmelden wolltest, ignoriere diese E-Mail: Ohne den Code kann sich niemand anmelden.',
  inviteSubject: '{inviter} hat dich zu {team} auf Headcount eingeladen',
  inviteBody: '{inviter} hat dich eingeladen, dem Team {team} auf Headcount als {role} beizutreten.',
  inviteHow: 'Melde dich mit dieser E-Mail-Adresse an, um die Einladung anzunehmen oder abzulehnen:',
  inviteButton: 'Einladung ansehen',
  webhookOffSubject: 'Dein Headcount-Webhook-Endpunkt wurde abgeschaltet',
  webhookOffBody: 'Wir haben deinen Webhook-Endpunkt {url} abgeschaltet.',
  webhookOffReason: 'Grund: „{reason}“',
  webhookOffNoReason: 'Er ist immer wieder fehlgeschlagen.',
  webhookOffNext: 'Ereignisse werden nicht mehr an ihn gesendet. Sobald der Empfänger wieder funktioniert, schalte den Endpunkt im Portal wieder ein und stelle die verpassten Ereignisse aus seinem Zustellprotokoll erneut zu.',
  webhookOffButton: 'Endpunkt öffnen',
  roles: { owner: 'Inhaber', admin: 'Admin', member: 'Mitglied' },
};

const id: MailStrings = {
  signInSubject: 'Kode masuk Headcount kamu: {code}',
  signInCode: 'Kode masukmu adalah {code}',
  signInLinkIntro: 'Ketik kode ini di halaman masuk, atau buka tautan ini untuk masuk:',
  signInButton: 'Masuk ke Headcount',
  signInExpiry: 'Kode dan tautan ini hanya berlaku sekali, selama {minutes} menit.',
  signInIgnore: 'Kalau kamu tidak meminta untuk masuk, abaikan email ini: tidak ada yang bisa masuk tanpa kode ini.',
  inviteSubject: '{inviter} mengundangmu ke {team} di Headcount',
  inviteBody: '{inviter} mengundangmu bergabung dengan tim {team} di Headcount sebagai {role}.',
  inviteHow: 'Masuk dengan alamat email ini untuk menerima atau menolak:',
  inviteButton: 'Lihat undangan',
  webhookOffSubject: 'Endpoint webhook Headcount kamu dinonaktifkan',
  webhookOffBody: 'Kami menonaktifkan endpoint webhook kamu {url}.',
  webhookOffReason: 'Alasan: “{reason}”',
  webhookOffNoReason: 'Endpoint ini terus gagal.',
  webhookOffNext: 'Event tidak lagi dikirim ke endpoint ini. Setelah penerima berfungsi lagi, aktifkan kembali endpoint di portal dan kirim ulang event yang terlewat dari log pengirimannya.',
  webhookOffButton: 'Buka endpoint',
  roles: { owner: 'pemilik', admin: 'admin', member: 'anggota' },
};

const tl: MailStrings = {
  signInSubject: 'Ang iyong sign-in code sa Headcount: {code}',
  signInCode: 'Ang iyong sign-in code ay {code}',
  signInLinkIntro: 'I-type ito sa sign-in page, o buksan ang link na ito para mag-sign in:',
  signInButton: 'Mag-sign in sa Headcount',
  signInExpiry: 'Isang beses lang gumagana ang code at ang link, sa loob ng {minutes} minuto.',
  signInIgnore: 'Kung hindi ka humiling na mag-sign in, huwag pansinin ang email na ito: walang makakapag-sign in nang wala ang code.',
  inviteSubject: 'Inimbitahan ka ni {inviter} sa {team} sa Headcount',
  inviteBody: 'Inimbitahan ka ni {inviter} na sumali sa team na {team} sa Headcount bilang {role}.',
  inviteHow: 'Mag-sign in gamit ang email address na ito para tanggapin o tanggihan:',
  inviteButton: 'Tingnan ang imbitasyon',
  webhookOffSubject: 'Pinatay ang iyong webhook endpoint sa Headcount',
  webhookOffBody: 'Pinatay namin ang iyong webhook endpoint na {url}.',
  webhookOffReason: 'Dahilan: “{reason}”',
  webhookOffNoReason: 'Paulit-ulit itong pumapalya.',
  webhookOffNext: 'Hindi na ito pinapadalhan ng mga event. Kapag gumagana na ulit ang receiver, buksan muli ang endpoint sa portal at ipadala ulit mula sa delivery log nito ang mga event na hindi nito natanggap.',
  webhookOffButton: 'Buksan ang endpoint',
  roles: { owner: 'may-ari', admin: 'admin', member: 'miyembro' },
};

export const MAIL_STRINGS: Record<QuestionLanguage, MailStrings> = { en, es, pt, hi, fr, de, id, tl };
