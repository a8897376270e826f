/**
 * What simulated heads write (development only, ARCHITECTURE §4 "Panel"): a few plausible
 * phrases per question language, combined at random so free-text answers and reasons vary.
 * Placeholders: {option} is the chosen option's label, {n} a 1–5 score.
 */
export interface Phrases {
  /** Short sentences that may open a written answer or a reason. */
  openers: string[];
  /** Free-text answers: opinions that fit most questions. */
  thoughts: string[];
  /** An optional second sentence for a free-text answer. */
  details: string[];
  /** An optional last sentence. */
  closers: string[];
  /** A reason's first half, naming the choice: "{option}" … */
  chose: string[];
  /** A reason's first half on a 1–5 scale. */
  scale: string[];
  /** The second half of a reason, after the choice: for it. */
  because: string[];
  /** …against it (a low score, a "no"). */
  against: string[];
  /** The reason when the head chose "Neither". */
  neither: string[];
  /** The reason on a click test. */
  tapped: string[];
  /** yes / mostly / no in this language, for reasons on yes_mostly_no questions. */
  yesMostlyNo: [string, string, string];
}

export const PHRASES: Record<'en' | 'es' | 'pt' | 'hi' | 'fr' | 'de' | 'id' | 'tl', Phrases> = {
  en: {
    openers: ['Good question.', 'Easy one for me.', 'Hard to say at first.', 'I thought about this for a bit.', 'Honestly?', 'From my own experience:'],
    thoughts: [
      'It has to be simple, otherwise I would not bother.',
      'It mostly depends on the price.',
      'I would use it if it saved me time every day.',
      'The first thing I look at is whether it feels trustworthy.',
      'I like it, but the wording could be clearer.',
      'Something like this would help me at work.',
      'It looks fine, though I am not sure who it is for.',
      'I would want to try it before deciding.',
      'My family would probably like this more than me.',
      'It reminds me of something I already use.',
    ],
    details: ['The design matters less to me than how it works.', 'If it were cheaper I would buy it straight away.', 'I use my phone for most of this.', 'Friends of mine have said the same.', 'I have been let down by similar things before.'],
    closers: ['That is about it.', 'Hope that helps.', 'Just my opinion.', 'Good luck with it!'],
    chose: ['I went with “{option}”', 'I picked “{option}”', '“{option}” for me', 'I chose “{option}”'],
    scale: ['I gave it {n} out of 5', '{n} out of 5', 'A {n} from me'],
    because: [
      'because it looks the clearest.',
      'because it feels more trustworthy.',
      'because it is what I would actually use.',
      'because the others seem too complicated.',
      'because it caught my eye first.',
      'because it fits how I live.',
      'because the price seems fair.',
      'because I have had good experiences with something similar.',
      'because it just feels right.',
    ],
    against: [
      'because it feels confusing.',
      'because it costs too much for what it is.',
      'because I would not really use it.',
      'because it does not feel trustworthy yet.',
    ],
    neither: ['None of them really fit what I need.', 'Neither one convinced me.', 'I would not pick any of these, to be honest.'],
    tapped: ['That is where I would look first.', 'That part stood out to me.', 'I expected the button to be there.', 'It was the first thing I noticed.'],
    yesMostlyNo: ['yes', 'mostly', 'no'],
  },
  es: {
    openers: ['Buena pregunta.', 'Para mí es fácil.', 'Al principio me costó decidir.', 'Lo pensé un poco.', 'Sinceramente…', 'Por experiencia propia:'],
    thoughts: [
      'Tiene que ser sencillo, si no, no me molestaría en usarlo.',
      'Depende sobre todo del precio.',
      'Lo usaría si me ahorrara tiempo cada día.',
      'Lo primero que miro es si da confianza.',
      'Me gusta, pero el texto podría ser más claro.',
      'Algo así me ayudaría en el trabajo.',
      'Se ve bien, aunque no sé muy bien para quién es.',
      'Querría probarlo antes de decidir.',
      'A mi familia seguramente le gustaría más que a mí.',
      'Me recuerda a algo que ya uso.',
    ],
    details: ['El diseño me importa menos que cómo funciona.', 'Si fuera más barato lo compraría enseguida.', 'Casi todo esto lo hago desde el móvil.', 'Mis amigos opinan lo mismo.', 'Ya me han decepcionado cosas parecidas.'],
    closers: ['Eso es todo.', 'Espero que ayude.', 'Es solo mi opinión.', '¡Suerte!'],
    chose: ['Elegí «{option}»', 'Me quedo con «{option}»', 'Para mí, «{option}»', 'Escogí «{option}»'],
    scale: ['Le doy un {n} de 5', 'Un {n} de 5', 'Mi nota: {n} de 5'],
    because: [
      'porque se ve más claro.',
      'porque me da más confianza.',
      'porque es lo que de verdad usaría.',
      'porque los demás parecen demasiado complicados.',
      'porque fue lo primero que me llamó la atención.',
      'porque encaja con mi forma de vivir.',
      'porque el precio parece justo.',
      'porque he tenido buenas experiencias con algo parecido.',
      'porque simplemente me convence.',
    ],
    against: [
      'porque resulta confuso.',
      'porque cuesta demasiado para lo que es.',
      'porque en realidad no lo usaría.',
      'porque todavía no me da confianza.',
    ],
    neither: ['Ninguna se ajusta a lo que necesito.', 'Ninguna me convenció.', 'La verdad, no elegiría ninguna.'],
    tapped: ['Es donde miraría primero.', 'Esa parte me llamó la atención.', 'Esperaba que el botón estuviera ahí.', 'Fue lo primero que vi.'],
    yesMostlyNo: ['sí', 'en su mayoría', 'no'],
  },
  pt: {
    openers: ['Boa pergunta.', 'Essa é fácil para mim.', 'No começo foi difícil decidir.', 'Pensei um pouco sobre isso.', 'Sinceramente…', 'Pela minha experiência:'],
    thoughts: [
      'Tem que ser simples, senão eu nem usaria.',
      'Depende principalmente do preço.',
      'Eu usaria se me poupasse tempo todos os dias.',
      'A primeira coisa que observo é se passa confiança.',
      'Gosto, mas o texto podia ser mais claro.',
      'Algo assim me ajudaria no trabalho.',
      'Parece bom, mas não sei bem para quem é.',
      'Eu queria experimentar antes de decidir.',
      'Minha família provavelmente gostaria mais do que eu.',
      'Lembra algo que já uso.',
    ],
    details: ['O design importa menos do que o funcionamento.', 'Se fosse mais barato, eu compraria na hora.', 'Faço quase tudo isso pelo celular.', 'Meus amigos pensam igual.', 'Já me decepcionei com coisas parecidas.'],
    closers: ['É isso.', 'Espero ter ajudado.', 'É só a minha opinião.', 'Boa sorte!'],
    chose: ['Escolhi «{option}»', 'Fico com «{option}»', 'Para mim, «{option}»', 'Optei por «{option}»'],
    scale: ['Dou nota {n} de 5', '{n} de 5', 'Minha nota: {n} de 5'],
    because: [
      'porque parece mais claro.',
      'porque passa mais confiança.',
      'porque é o que eu realmente usaria.',
      'porque os outros parecem complicados demais.',
      'porque foi o que chamou minha atenção primeiro.',
      'porque combina com o meu dia a dia.',
      'porque o preço parece justo.',
      'porque tive boas experiências com algo parecido.',
      'porque simplesmente me agrada.',
    ],
    against: [
      'porque parece confuso.',
      'porque custa caro demais para o que é.',
      'porque eu não usaria de verdade.',
      'porque ainda não passa confiança.',
    ],
    neither: ['Nenhuma atende ao que eu preciso.', 'Nenhuma me convenceu.', 'Sinceramente, não escolheria nenhuma.'],
    tapped: ['É onde eu olharia primeiro.', 'Essa parte chamou minha atenção.', 'Eu esperava que o botão estivesse ali.', 'Foi a primeira coisa que vi.'],
    yesMostlyNo: ['sim', 'em grande parte', 'não'],
  },
  hi: {
    openers: ['अच्छा सवाल है।', 'मेरे लिए यह आसान है।', 'पहले तय करना मुश्किल लगा।', 'मैंने इस पर थोड़ा सोचा।', 'सच कहूँ तो…', 'अपने अनुभव से:'],
    thoughts: [
      'यह आसान होना चाहिए, वरना मैं इस्तेमाल नहीं करूँगा।',
      'ज़्यादातर यह कीमत पर निर्भर करता है।',
      'अगर इससे रोज़ समय बचे तो मैं इसे ज़रूर इस्तेमाल करूँगा।',
      'सबसे पहले मैं देखता हूँ कि इस पर भरोसा किया जा सकता है या नहीं।',
      'मुझे अच्छा लगा, पर भाषा थोड़ी और साफ़ हो सकती है।',
      'ऐसा कुछ मेरे काम में मदद करेगा।',
      'देखने में ठीक है, पर पता नहीं यह किसके लिए है।',
      'फ़ैसला करने से पहले मैं इसे आज़माना चाहूँगा।',
      'शायद मेरे परिवार को यह मुझसे ज़्यादा पसंद आएगा।',
      'यह मुझे उस चीज़ की याद दिलाता है जो मैं पहले से इस्तेमाल करता हूँ।',
    ],
    details: ['डिज़ाइन से ज़्यादा मेरे लिए यह ज़रूरी है कि यह कैसे काम करता है।', 'अगर यह सस्ता होता तो मैं तुरंत खरीद लेता।', 'यह सब मैं ज़्यादातर फ़ोन पर करता हूँ।', 'मेरे दोस्त भी यही कहते हैं।', 'ऐसी चीज़ों से पहले निराशा हुई है।'],
    closers: ['बस इतना ही।', 'उम्मीद है इससे मदद मिलेगी।', 'यह सिर्फ़ मेरी राय है।', 'शुभकामनाएँ!'],
    chose: ['मैंने "{option}" चुना', 'मेरी पसंद "{option}" है', 'मेरे लिए "{option}"', 'मैं "{option}" के साथ गया'],
    scale: ['मैंने इसे 5 में से {n} दिए', '5 में से {n}', 'मेरी तरफ़ से {n}/5'],
    because: [
      'क्योंकि यह सबसे साफ़ दिखता है।',
      'क्योंकि इस पर ज़्यादा भरोसा होता है।',
      'क्योंकि मैं असल में यही इस्तेमाल करूँगा।',
      'क्योंकि बाकी बहुत उलझे हुए लगते हैं।',
      'क्योंकि इसी पर सबसे पहले नज़र गई।',
      'क्योंकि यह मेरी ज़िंदगी के हिसाब से ठीक बैठता है।',
      'क्योंकि कीमत सही लगती है।',
      'क्योंकि ऐसी चीज़ के साथ मेरा अनुभव अच्छा रहा है।',
      'क्योंकि यह बस सही लगता है।',
    ],
    against: [
      'क्योंकि यह उलझा हुआ लगता है।',
      'क्योंकि जो मिलता है उसके हिसाब से यह बहुत महँगा है।',
      'क्योंकि मैं असल में इसे इस्तेमाल नहीं करूँगा।',
      'क्योंकि अभी इस पर भरोसा नहीं होता।',
    ],
    neither: ['कोई भी मेरी ज़रूरत के हिसाब से नहीं है।', 'किसी ने मुझे मनाया नहीं।', 'सच कहूँ तो मैं इनमें से कोई नहीं चुनूँगा।'],
    tapped: ['मैं सबसे पहले यहीं देखूँगा।', 'यह हिस्सा मुझे सबसे अलग लगा।', 'मुझे लगा बटन यहीं होगा।', 'सबसे पहले यही दिखा।'],
    yesMostlyNo: ['हाँ', 'ज़्यादातर', 'नहीं'],
  },
  fr: {
    openers: ['Bonne question.', 'Facile pour moi.', 'Difficile à dire au début.', 'J’y ai réfléchi un moment.', 'Franchement…', 'D’après mon expérience :'],
    thoughts: [
      'Il faut que ce soit simple, sinon je ne m’en servirais pas.',
      'Ça dépend surtout du prix.',
      'Je l’utiliserais si ça me faisait gagner du temps chaque jour.',
      'La première chose que je regarde, c’est si ça inspire confiance.',
      'J’aime bien, mais le texte pourrait être plus clair.',
      'Quelque chose comme ça m’aiderait au travail.',
      'Ça a l’air bien, mais je ne sais pas trop à qui ça s’adresse.',
      'J’aimerais l’essayer avant de me décider.',
      'Ma famille aimerait sans doute plus que moi.',
      'Ça me rappelle quelque chose que j’utilise déjà.',
    ],
    details: ['Le design compte moins pour moi que le fonctionnement.', 'Si c’était moins cher, je l’achèterais tout de suite.', 'Je fais presque tout ça sur mon téléphone.', 'Mes amis disent la même chose.', 'J’ai déjà été déçu par des choses semblables.'],
    closers: ['Voilà.', 'J’espère que ça aide.', 'Ce n’est que mon avis.', 'Bon courage !'],
    chose: ['J’ai choisi « {option} »', 'Je prends « {option} »', 'Pour moi, « {option} »', 'Mon choix : « {option} »'],
    scale: ['Je donne {n} sur 5', '{n} sur 5', 'Ma note : {n}/5'],
    because: [
      'parce que c’est le plus clair.',
      'parce que ça inspire plus confiance.',
      'parce que c’est ce que j’utiliserais vraiment.',
      'parce que les autres ont l’air trop compliqués.',
      'parce que c’est ce qui m’a attiré l’œil en premier.',
      'parce que ça correspond à ma façon de vivre.',
      'parce que le prix semble juste.',
      'parce que j’ai eu de bonnes expériences avec quelque chose de semblable.',
      'parce que ça me parle, tout simplement.',
    ],
    against: [
      'parce que c’est un peu confus.',
      'parce que c’est trop cher pour ce que c’est.',
      'parce que je ne m’en servirais pas vraiment.',
      'parce que ça n’inspire pas encore confiance.',
    ],
    neither: ['Aucune ne correspond à ce dont j’ai besoin.', 'Aucune ne m’a convaincu.', 'Honnêtement, je n’en choisirais aucune.'],
    tapped: ['C’est là que je regarderais en premier.', 'Cette partie m’a sauté aux yeux.', 'Je m’attendais à trouver le bouton là.', 'C’est la première chose que j’ai vue.'],
    yesMostlyNo: ['oui', 'plutôt oui', 'non'],
  },
  de: {
    openers: ['Gute Frage.', 'Für mich ist das einfach.', 'Am Anfang schwer zu sagen.', 'Ich habe kurz darüber nachgedacht.', 'Ehrlich gesagt:', 'Aus eigener Erfahrung:'],
    thoughts: [
      'Es muss einfach sein, sonst würde ich es nicht nutzen.',
      'Es hängt vor allem vom Preis ab.',
      'Ich würde es nutzen, wenn es mir jeden Tag Zeit spart.',
      'Als Erstes achte ich darauf, ob es vertrauenswürdig wirkt.',
      'Gefällt mir, aber der Text könnte klarer sein.',
      'So etwas würde mir bei der Arbeit helfen.',
      'Sieht gut aus, aber ich weiß nicht genau, für wen es gedacht ist.',
      'Ich würde es gern ausprobieren, bevor ich mich entscheide.',
      'Meiner Familie würde es wahrscheinlich besser gefallen als mir.',
      'Es erinnert mich an etwas, das ich schon benutze.',
    ],
    details: ['Das Design ist mir weniger wichtig als die Funktion.', 'Wenn es günstiger wäre, würde ich es sofort kaufen.', 'Das meiste davon mache ich am Handy.', 'Meine Freunde sehen das genauso.', 'Ähnliche Sachen haben mich schon enttäuscht.'],
    closers: ['Das wär’s.', 'Ich hoffe, das hilft.', 'Nur meine Meinung.', 'Viel Erfolg!'],
    chose: ['Ich habe „{option}“ gewählt,', 'Für mich „{option}“,', 'Ich nehme „{option}“,', 'Meine Wahl ist „{option}“,'],
    scale: ['Ich gebe {n} von 5,', '{n} von 5,', 'Von mir eine {n},'],
    because: [
      'weil es am klarsten aussieht.',
      'weil es vertrauenswürdiger wirkt.',
      'weil ich das wirklich benutzen würde.',
      'weil die anderen zu kompliziert wirken.',
      'weil es mir zuerst ins Auge gefallen ist.',
      'weil es zu meinem Alltag passt.',
      'weil der Preis fair wirkt.',
      'weil ich mit etwas Ähnlichem gute Erfahrungen gemacht habe.',
      'weil es sich einfach richtig anfühlt.',
    ],
    against: [
      'weil es verwirrend wirkt.',
      'weil es für das, was es ist, zu teuer ist.',
      'weil ich es nicht wirklich nutzen würde.',
      'weil es noch nicht vertrauenswürdig wirkt.',
    ],
    neither: ['Keine passt wirklich zu dem, was ich brauche.', 'Keine hat mich überzeugt.', 'Ehrlich gesagt würde ich keine davon nehmen.'],
    tapped: ['Da würde ich zuerst hinschauen.', 'Dieser Teil ist mir aufgefallen.', 'Ich hätte den Knopf dort erwartet.', 'Das habe ich als Erstes gesehen.'],
    yesMostlyNo: ['ja', 'größtenteils', 'nein'],
  },
  id: {
    openers: ['Pertanyaan bagus.', 'Ini gampang buat saya.', 'Awalnya susah memutuskan.', 'Saya sempat berpikir sebentar.', 'Jujur saja…', 'Dari pengalaman saya:'],
    thoughts: [
      'Harus sederhana, kalau tidak saya tidak akan memakainya.',
      'Sebagian besar tergantung harganya.',
      'Saya akan memakainya kalau bisa menghemat waktu setiap hari.',
      'Hal pertama yang saya lihat adalah apakah terasa bisa dipercaya.',
      'Saya suka, tapi tulisannya bisa lebih jelas.',
      'Yang seperti ini akan membantu pekerjaan saya.',
      'Kelihatannya bagus, tapi saya kurang yakin ini untuk siapa.',
      'Saya ingin mencobanya dulu sebelum memutuskan.',
      'Keluarga saya mungkin lebih suka daripada saya.',
      'Ini mengingatkan saya pada sesuatu yang sudah saya pakai.',
    ],
    details: ['Bagi saya desain tidak sepenting cara kerjanya.', 'Kalau lebih murah, saya langsung beli.', 'Hampir semua ini saya lakukan lewat HP.', 'Teman-teman saya juga bilang begitu.', 'Saya pernah kecewa dengan hal serupa.'],
    closers: ['Itu saja.', 'Semoga membantu.', 'Ini hanya pendapat saya.', 'Semoga sukses!'],
    chose: ['Saya pilih "{option}"', 'Pilihan saya "{option}"', 'Buat saya "{option}"', 'Saya memilih "{option}"'],
    scale: ['Saya kasih {n} dari 5', '{n} dari 5', 'Nilai dari saya {n}/5'],
    because: [
      'karena kelihatannya paling jelas.',
      'karena terasa lebih bisa dipercaya.',
      'karena itu yang benar-benar akan saya pakai.',
      'karena yang lain terlihat terlalu rumit.',
      'karena itu yang pertama menarik perhatian saya.',
      'karena cocok dengan keseharian saya.',
      'karena harganya terasa wajar.',
      'karena saya punya pengalaman bagus dengan yang mirip.',
      'karena rasanya pas saja.',
    ],
    against: [
      'karena terasa membingungkan.',
      'karena terlalu mahal untuk yang didapat.',
      'karena sebenarnya saya tidak akan memakainya.',
      'karena belum terasa bisa dipercaya.',
    ],
    neither: ['Tidak ada yang sesuai dengan kebutuhan saya.', 'Tidak ada yang meyakinkan saya.', 'Jujur, saya tidak akan memilih satu pun.'],
    tapped: ['Di situ saya akan melihat pertama kali.', 'Bagian itu paling menonjol buat saya.', 'Saya kira tombolnya ada di situ.', 'Itu yang pertama saya lihat.'],
    yesMostlyNo: ['ya', 'sebagian besar', 'tidak'],
  },
  tl: {
    openers: ['Magandang tanong.', 'Madali ito para sa akin.', 'Medyo mahirap magpasya noong una.', 'Pinag-isipan ko ito nang kaunti.', 'Sa totoo lang…', 'Mula sa sarili kong karanasan:'],
    thoughts: [
      'Dapat simple lang, kung hindi ay hindi ko ito gagamitin.',
      'Kadalasan nakadepende ito sa presyo.',
      'Gagamitin ko ito kung makakatipid ako ng oras araw-araw.',
      'Ang una kong tinitingnan ay kung mapagkakatiwalaan ito.',
      'Gusto ko, pero puwedeng mas malinaw ang pagkakasulat.',
      'Makakatulong ang ganito sa trabaho ko.',
      'Mukhang maayos, pero hindi ako sigurado kung para kanino ito.',
      'Gusto ko munang subukan bago magpasya.',
      'Mas magugustuhan siguro ito ng pamilya ko kaysa sa akin.',
      'Naaalala ko rito ang isang bagay na ginagamit ko na.',
    ],
    details: ['Mas mahalaga sa akin kung paano ito gumagana kaysa sa itsura.', 'Kung mas mura ito, bibilhin ko agad.', 'Karamihan nito ay ginagawa ko sa cellphone.', 'Ganito rin ang sabi ng mga kaibigan ko.', 'Nadismaya na ako sa mga katulad nito dati.'],
    closers: ['Iyon lang.', 'Sana makatulong.', 'Opinyon ko lang ito.', 'Good luck!'],
    chose: ['Pinili ko ang "{option}"', '"{option}" ang pinili ko', 'Para sa akin, "{option}"', '"{option}" ako'],
    scale: ['Binigyan ko ng {n} sa 5', '{n} sa 5', 'Ang marka ko ay {n}/5'],
    because: [
      'kasi ito ang pinakamalinaw.',
      'kasi mas mapagkakatiwalaan ito.',
      'kasi ito talaga ang gagamitin ko.',
      'kasi masyadong komplikado ang iba.',
      'kasi ito ang unang pumukaw ng pansin ko.',
      'kasi bagay ito sa pamumuhay ko.',
      'kasi mukhang sulit ang presyo.',
      'kasi maganda ang karanasan ko sa katulad nito.',
      'kasi parang tama lang.',
    ],
    against: [
      'kasi medyo nakakalito.',
      'kasi masyadong mahal para sa makukuha.',
      'kasi hindi ko naman talaga ito gagamitin.',
      'kasi hindi pa ako masyadong nagtitiwala rito.',
    ],
    neither: ['Wala sa mga ito ang akma sa kailangan ko.', 'Walang nakakumbinsi sa akin.', 'Sa totoo lang, wala akong pipiliin dito.'],
    tapped: ['Diyan ako unang titingin.', 'Iyan ang bahaging pumansin sa akin.', 'Inasahan kong nandiyan ang button.', 'Iyan ang una kong nakita.'],
    yesMostlyNo: ['oo', 'karamihan', 'hindi'],
  },
};

/** The phrases for a draft language such as "pt" or "pt-BR"; English for languages without any. */
export function phrasesFor(language: string | undefined): Phrases {
  const base = (language ?? 'en').slice(0, 2).toLowerCase();
  return (PHRASES as Record<string, Phrases>)[base] ?? PHRASES.en;
}
